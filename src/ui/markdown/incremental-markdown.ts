// Streaming-safe incremental markdown: while text only grows, every block before the last one is
// final, so only the last block is lexed, rendered and sanitised again. Work per update is
// proportional to the last block, not to the whole message.
import type { Token } from "marked";
import { lexBlocks, renderBlock } from "./render-markdown";

export interface RenderedBlock {
  /** Stable while the block stays in place (its index among the blocks). */
  key: string;
  /** Sanitised HTML. */
  html: string;
}

export interface IncrementalStats {
  /** Characters lexed by the last update (the tail while streaming, all of it otherwise). */
  lexedChars: number;
  /** Blocks rendered (not served from the cache) by the last update. */
  renderedBlocks: number;
}

interface Entry {
  type: string;
  raw: string;
  html: string;
}

export class IncrementalMarkdown {
  private source = "";
  private tokens: Token[] = [];
  /** Rendered HTML per token index, kept aligned with `tokens`. */
  private entries: Entry[] = [];
  private blocks: RenderedBlock[] = [];
  private incremental = false;
  readonly stats: IncrementalStats = { lexedChars: 0, renderedBlocks: 0 };

  /**
   * Renders `text`. Pass `final: true` once the stream has ended: a last full pass settles the
   * rare constructs that depend on later text (reference-style link definitions).
   */
  update(text: string, options: { final?: boolean } = {}): RenderedBlock[] {
    const source = text.indexOf("\r") === -1 ? text : text.replace(/\r\n?/g, "\n");
    const unchanged = source === this.source && !(options.final && this.incremental);
    if (unchanged && this.blocks.length > 0) {
      this.stats.lexedChars = 0;
      this.stats.renderedBlocks = 0;
      return this.blocks;
    }
    const keep = options.final ? this.lexAll(source) : this.lex(source);
    this.source = source;
    this.render(keep);
    return this.blocks;
  }

  /** Lexes everything; returns how many leading entries are known to be still valid (none). */
  private lexAll(source: string): number {
    this.incremental = false;
    this.stats.lexedChars = source.length;
    const tokens = lexBlocks(source);
    // Reference definitions change how earlier blocks render: no cached HTML can be trusted.
    if (Object.keys(tokens.links).length > 0) this.entries = [];
    this.tokens = tokens;
    return 0;
  }

  /** Lexes only from the last block on when the text grew; returns the count of untouched blocks. */
  private lex(source: string): number {
    if (!this.source || !source.startsWith(this.source) || this.tokens.length === 0) return this.lexAll(source);
    let last = this.tokens.length - 1;
    while (last > 0 && this.tokens[last]!.type === "space") last--;
    let offset = 0;
    for (let i = 0; i < last; i++) offset += this.tokens[i]!.raw.length;
    const tail = source.slice(offset);
    const tailTokens = lexBlocks(tail);
    // The split is only sound when the tail's blocks reproduce the tail exactly.
    if (tailTokens.map((token) => token.raw).join("") !== tail) return this.lexAll(source);
    this.incremental = true;
    this.stats.lexedChars = tail.length;
    this.tokens = this.tokens.slice(0, last).concat(tailTokens);
    return last;
  }

  private render(keep: number): void {
    const entries = this.entries.slice(0, this.tokens.length);
    const blocks = this.blocks.filter((block) => Number(block.key) < keep);
    let rendered = 0;
    for (let index = keep; index < this.tokens.length; index++) {
      const token = this.tokens[index]!;
      const previous = this.entries[index];
      let html: string;
      if (token.type === "space") html = "";
      else if (previous && previous.type === token.type && previous.raw === token.raw) html = previous.html;
      else {
        html = renderBlock(token);
        rendered++;
      }
      entries[index] = { type: token.type, raw: token.raw, html };
      if (token.type !== "space") blocks.push({ key: String(index), html });
    }
    this.entries = entries;
    this.blocks = blocks;
    this.stats.renderedBlocks = rendered;
  }
}
