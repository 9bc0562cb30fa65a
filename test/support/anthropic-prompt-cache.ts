// Anthropic's prompt cache, modelled for the fake model server (test/bench/requests.measure.ts): from
// a Messages request body, the usage Anthropic would report (input_tokens, cache_read_input_tokens,
// cache_creation_input_tokens), as its prompt-caching guide describes it:
// - the prompt is read in the order tools, system, messages, as a list of blocks;
// - a cache_control mark on a block writes the prefix up to and including it to the cache, if that
//   prefix has at least the model's minimum (1024 tokens for Sonnet and Opus);
// - a mark reads the longest cached prefix ending at it or at one of the 20 blocks before it;
// - what follows the read prefix up to the last mark is written (billed as a cache write), the rest
//   is plain input.
// Tokens are estimated at 4 bytes of JSON each; the 5-minute lifetime is left out (a scripted session
// takes seconds).
import { createHash, type Hash } from "node:crypto";
import type { FakeUsage } from "./fake-model-server";

export const MIN_CACHEABLE_TOKENS = 1024;
const LOOKBACK_BLOCKS = 20;

type Json = Record<string, unknown>;

/** The blocks of a request in the order Anthropic reads them, each with its token estimate and mark. */
function blocks(body: Json): Array<{ json: string; tokens: number; marked: boolean }> {
  const list: Json[] = [];
  for (const tool of (body.tools as Json[] | undefined) ?? []) list.push(tool);
  const system = body.system;
  if (typeof system === "string") list.push({ type: "text", text: system });
  else for (const block of (system as Json[] | undefined) ?? []) list.push(block);
  for (const message of (body.messages as Array<{ role: string; content: string | Json[] }> | undefined) ?? []) {
    if (typeof message.content === "string") list.push({ role: message.role, type: "text", text: message.content });
    else for (const block of message.content) list.push({ role: message.role, ...block });
  }
  return list.map((block) => {
    const { cache_control: mark, ...rest } = block;
    const json = JSON.stringify(rest);
    return { json, tokens: Math.ceil(Buffer.byteLength(json) / 4), marked: mark !== undefined };
  });
}

/** A model of one cache (one API key, one model): keep it across the requests of a session. */
export class AnthropicPromptCache {
  private readonly prefixes = new Set<string>();

  /** The usage of a request (output tokens as given), and the prefixes it writes remembered. */
  usage(body: Json, output = 50): FakeUsage {
    const list = blocks(body);
    const keys: string[] = [];
    const sums: number[] = [];
    let hash: Hash = createHash("sha256");
    let sum = 0;
    for (const block of list) {
      hash.update(block.json).update("\u0000");
      keys.push(hash.copy().digest("hex"));
      hash = hash.copy();
      sum += block.tokens;
      sums.push(sum);
    }
    const total = sum;
    const marks = list.flatMap((block, i) => (block.marked ? [i] : []));
    // The longest cached prefix a mark reaches (at it or up to 20 blocks before it).
    let hit = -1;
    for (const mark of marks) {
      for (let i = mark; i >= 0 && i >= mark - LOOKBACK_BLOCKS; i--) {
        if (this.prefixes.has(keys[i]!)) {
          hit = Math.max(hit, i);
          break;
        }
      }
    }
    const cacheable = marks.filter((mark) => sums[mark]! >= MIN_CACHEABLE_TOKENS);
    for (const mark of cacheable) this.prefixes.add(keys[mark]!);
    const read = hit >= 0 ? sums[hit]! : 0;
    const last = cacheable.at(-1);
    const write = last !== undefined && last > hit ? sums[last]! - read : 0;
    return { input: total - read - write, output, cacheRead: read, cacheWrite: write };
  }
}
