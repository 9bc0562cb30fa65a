// Secrets must not leave in a share: text attachments (base64 data: URLs the scan cannot read) are
// not sent, keys of more providers are recognised, configured keys of any format are found and
// redacted, and every free-text field of the envelope is redacted.
import { describe, expect, it } from "vitest";
import { encodeText } from "../../src/base";
import { RECORD_VERSION, type MessageRecord, type PartRecord } from "../../src/storage";
import { decodeShareLink, encodeShareFile, encodeShareLink, findSecrets, redactSecrets, scanForSecrets, type ShareSource } from "../../src/transfer";
import { base64Encode } from "../../src/transfer/base64";
import { fixedShareSource } from "../fixtures/share-source";

// Built from pieces so this file itself does not look like it holds keys.
const KEYS = {
  groq: "gsk_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X4y5Z6",
  xai: "xai-" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8L9z0X1c2V3b4N5m6",
  huggingface: "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
  openrouter: "sk-or-" + "v1-" + "0123456789abcdef0123456789abcdef0123456789abcdef",
  replicate: "r8_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa",
};
/** A key with no recognisable prefix (Mistral and Together keys look like this). */
const PLAIN_KEY = "Mq7" + "Vt2xP9kLw4Zr8Nb3Yc6Hd1Jf5Gs0Ua";

function textAttachmentUrl(text: string): string {
  return `data:text/plain;base64,${base64Encode(encodeText(text))}`;
}

function withParts(extra: Array<Record<string, unknown>>): ShareSource {
  const source = fixedShareSource();
  for (const [i, rest] of extra.entries()) {
    source.parts.push({ v: RECORD_VERSION, id: `prt_x${i}`, sessionId: "ses_fixed", messageId: "msg_2", ...rest } as PartRecord);
  }
  return source;
}

describe("text attachments in shares", () => {
  it("are not sent: the link holds neither the key nor its base64, with or without redaction", () => {
    const key = "sk-" + "proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4";
    const url = textAttachmentUrl(`notes\nOPENAI_API_KEY=${key}\n`);
    const image = "data:image/png;base64,iVBORw0KGgo=";
    const source = withParts([
      { type: "file", mime: "text/plain", filename: "notes.txt", url },
      { type: "file", mime: "image/png", filename: "shot.png", url: image },
    ]);
    for (const redactFindings of [true, false]) {
      const { fragment, envelope } = encodeShareLink(source, { redactFindings });
      const files = envelope.parts.filter((p) => p.type === "file");
      expect(files.map((p) => [p.filename, p.url])).toEqual([
        ["notes.txt", ""],
        ["shot.png", image],
      ]);
      const json = JSON.stringify(envelope);
      expect(json).not.toContain(key);
      expect(json).not.toContain(url.slice(-40));
      // And the receiver sees the same (nothing of the text attachment arrived).
      const restored = decodeShareLink(fragment!);
      expect(restored.envelope.parts.filter((p) => p.type === "file").map((p) => p.url)).toEqual(["", image]);
    }
  });

  it("the scan reports no finding for an attachment whose content is not sent, but does for its name", () => {
    const key = "ghp_" + "0123456789abcdefghijABCDEFGHIJ012345";
    const source = withParts([{ type: "file", mime: "text/plain", filename: `token ${key}.txt`, url: textAttachmentUrl(key) }]);
    expect(scanForSecrets(source).map((f) => [f.partId, f.kind])).toEqual([["prt_x0", "github-token"]]);
  });
});

describe("keys of more providers", () => {
  it("recognises Groq, xAI, Hugging Face, OpenRouter and Replicate keys and redacts them", () => {
    const kinds = Object.values(KEYS).map((key) => findSecrets(`KEY=${key}\n`).map((f) => f.kind));
    expect(kinds).toEqual([["groq-key"], ["xai-key"], ["huggingface-token"], ["openrouter-key"], ["replicate-token"]]);
    for (const key of Object.values(KEYS)) {
      expect(redactSecrets(`a ${key} b`)).toMatch(/^a \[redacted [a-z-]+\] b$/);
      expect(findSecrets(key)[0]!.preview).not.toContain(key.slice(6));
    }
    expect(findSecrets("use xai-sdk and hf_hub; gsk_ is Groq's prefix; r8_ too")).toEqual([]);
  });

  it("finds and redacts a configured key of any format, longest first, and ignores placeholder-short ones", () => {
    const options = { knownSecrets: [PLAIN_KEY, `${PLAIN_KEY}-suffix`, "ollama", "  "] };
    expect(findSecrets(`key: ${PLAIN_KEY}`)).toEqual([]);
    expect(findSecrets(`key: ${PLAIN_KEY}`, options).map((f) => f.kind)).toEqual(["configured-key"]);
    expect(findSecrets(`key: ${PLAIN_KEY}`, options)[0]!.preview).not.toContain(PLAIN_KEY.slice(6));
    expect(redactSecrets(`a ${PLAIN_KEY}-suffix b ${PLAIN_KEY} c ollama`, options)).toBe("a [redacted configured-key] b [redacted configured-key] c ollama");
    expect(redactSecrets("1+1 (a.b)*", { knownSecrets: ["(a.b)*+1+1.."] })).toBe("1+1 (a.b)*");
  });
});

describe("every free-text field of the envelope", () => {
  function leakySource(): ShareSource {
    const source = fixedShareSource();
    const k = PLAIN_KEY;
    source.session.title = `Debug ${k}`;
    const assistant = source.messages[1] as Extract<MessageRecord, { role: "assistant" }>;
    assistant.finish = `stop ${k}`;
    assistant.error = { name: `Err ${k}`, message: `401 for ${k}`, action: `Check the key ${k} in Settings.` };
    source.parts.push(
      ...[
        { type: "retry", attempt: 1, error: { name: `E ${k}`, message: `m ${k}`, action: `do ${k}` }, at: 1, delayMs: 1 },
        { type: "step-finish", reason: `r ${k}`, tokens: { input: 0, output: 0, reasoning: 0, cacheRead: 0, cacheWrite: 0 }, cost: 0 },
        { type: "tool", callId: `call_${k}`, tool: "bash", state: { status: "completed", input: { command: `curl -H "x: ${k}"`, [k]: 1 }, output: `out ${k}`, title: `t ${k}`, metadata: { [`h_${k}`]: [k] }, start: 1, end: 2 } },
        { type: "tool", callId: "c2", tool: "read", state: { status: "error", input: {}, error: `e ${k}`, start: 1, end: 2 } },
        { type: "file", mime: "text/plain", filename: `${k}.txt`, url: "notes.txt" },
        { type: "subtask", prompt: `p ${k}`, description: `d ${k}`, agent: "general" },
        { type: "text", text: `t ${k}` },
        { type: "reasoning", text: `r ${k}`, time: { start: 1, end: 2 } },
      ].map((rest, i) => ({ v: RECORD_VERSION, id: `prt_k${i}`, sessionId: "ses_fixed", messageId: "msg_2", ...rest }) as PartRecord),
    );
    source.files.push({ v: RECORD_VERSION, workspaceId: "ws_fixed", path: "conf.json", kind: "file", data: `{"key":"${k}"}`, mtime: 1 });
    return source;
  }

  it("the scan finds the configured key in each of them", () => {
    const findings = scanForSecrets(leakySource(), { knownSecrets: [PLAIN_KEY] });
    expect(findings.every((f) => f.kind === "configured-key")).toBe(true);
    const where = findings.map((f) => f.path ?? f.partId ?? f.messageId ?? "title");
    expect(where.filter((w) => w === "msg_2")).toHaveLength(4); // finish, error name, message and action
    expect(new Set(where)).toEqual(new Set(["conf.json", "title", "msg_2", ...Array.from({ length: 8 }, (_, i) => `prt_k${i}`)]));
  });

  it("redaction removes it from all of them, and the link still opens", () => {
    const source = leakySource();
    for (const encode of [() => encodeShareLink(source, { redactFindings: true, knownSecrets: [PLAIN_KEY] }).envelope, () => encodeShareFile(source, { redactFindings: true, knownSecrets: [PLAIN_KEY] }).envelope]) {
      const json = JSON.stringify(encode());
      expect(json).not.toContain(PLAIN_KEY);
      expect(json).toContain("[redacted configured-key]");
    }
    const { fragment } = encodeShareLink(source, { redactFindings: true, knownSecrets: [PLAIN_KEY] });
    const restored = decodeShareLink(fragment!);
    expect(JSON.stringify(restored.envelope)).not.toContain(PLAIN_KEY);
    const assistant = restored.envelope.messages[1]!;
    expect(assistant.role === "assistant" && assistant.error).toEqual({ name: "Err [redacted configured-key]", message: "401 for [redacted configured-key]", action: "Check the key [redacted configured-key] in Settings." });
    expect(restored.entries.find((e) => e.path === "conf.json")).toMatchObject({ data: '{"key":"[redacted configured-key]"}' });
  });

  it("a configured key is only matched, never added: a share of a source without it does not hold it", () => {
    const { envelope } = encodeShareLink(fixedShareSource(), { redactFindings: true, knownSecrets: [PLAIN_KEY] });
    expect(JSON.stringify(envelope)).not.toContain(PLAIN_KEY);
  });
});
