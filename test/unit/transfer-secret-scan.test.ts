import { describe, expect, it } from "vitest";
import { RECORD_VERSION, type FileRecord, type PartRecord } from "../../src/storage";
import { findSecrets, isEnvFile, redactSecrets, scanForSecrets } from "../../src/transfer";
import { fixedShareSource } from "../fixtures/share-source";

// Built from pieces so this file itself does not look like it holds keys.
const KEYS = {
  openai: "sk-" + "proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4",
  anthropic: "sk-ant-" + "api03-" + "x".repeat(30),
  aws: "AKIA" + "IOSFODNN7EXAMPLE",
  github: "ghp_" + "0123456789abcdefghijABCDEFGHIJ012345",
  githubPat: "github_pat_" + "11ABCDEFG0123456789_abcdefghijklmnop",
  slack: "xoxb-" + "1234567890-abcdefghij",
  google: "AIza" + "SyA-1234567890abcdefghijklmnopqrstu",
  pem: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----",
};

describe("secret scan", () => {
  it("recognises each kind of key and masks it", () => {
    const kinds = Object.values(KEYS).map((key) => findSecrets(`value = ${key};`).map((f) => f.kind));
    expect(kinds).toEqual([["openai-key"], ["anthropic-key"], ["aws-access-key"], ["github-token"], ["github-token"], ["slack-token"], ["google-api-key"], ["private-key"]]);
    for (const key of Object.values(KEYS)) {
      const [finding] = findSecrets(key);
      expect(finding!.preview).not.toContain(key.slice(8));
      expect(finding!.preview).toMatch(/characters\)$/);
    }
  });

  it("does not flag ordinary text", () => {
    expect(findSecrets("the task-list is done; skip-ahead; AKIA is a prefix; sk-short")).toEqual([]);
    expect(findSecrets("-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----")).toEqual([]);
  });

  it("tells .env files from templates", () => {
    expect([".env", "app/.env", ".env.local", ".env.production"].map(isEnvFile)).toEqual([true, true, true, true]);
    expect([".env.example", ".env.sample", ".env.template", "env.ts", ".envrc.md", "a.env"].map(isEnvFile)).toEqual([false, false, false, false, false, false]);
  });

  it("redacts every match", () => {
    const text = `a ${KEYS.openai} b ${KEYS.aws} c\n${KEYS.pem}\nd`;
    const redacted = redactSecrets(text);
    expect(findSecrets(redacted)).toEqual([]);
    expect(redacted).toBe("a [redacted openai-key] b [redacted aws-access-key] c\n[redacted private-key]\nd");
  });

  it("scans files and the transcript, saying where each finding is", () => {
    const source = fixedShareSource();
    const file = (path: string, data: string | Uint8Array): FileRecord => ({ v: RECORD_VERSION, workspaceId: "w", path, kind: "file", data, mtime: 1 });
    source.files.push(file(".env", "X=1"), file(".env.example", "X="), file("src/config.ts", `export const key = "${KEYS.github}";`), file("bin.dat", new Uint8Array([0, 1])));
    source.parts.push({
      v: RECORD_VERSION,
      id: "prt_tool",
      sessionId: "ses_fixed",
      messageId: "msg_2",
      type: "tool",
      callId: "c",
      tool: "bash",
      state: { status: "completed", input: { command: "env" }, output: `ANTHROPIC_API_KEY=${KEYS.anthropic}`, title: "env", metadata: {}, start: 1, end: 2 },
    } as PartRecord);
    source.session.title = `debug ${KEYS.slack}`;
    const findings = scanForSecrets(source);
    expect(findings).toEqual([
      { where: "file", path: ".env", kind: "env-file", preview: ".env (environment file)" },
      { where: "file", path: "src/config.ts", kind: "github-token", preview: expect.any(String) },
      { where: "message", kind: "slack-token", preview: expect.any(String) },
      { where: "message", messageId: "msg_2", partId: "prt_tool", kind: "anthropic-key", preview: expect.any(String) },
    ]);
  });
});
