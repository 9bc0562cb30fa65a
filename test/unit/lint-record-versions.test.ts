import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Runs the real lint configuration on virtual files: only the factories and migrations write `v`.
const eslint = new ESLint({ cwd: process.cwd() });

async function versionErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === "local/record-versions").map((m) => m.message);
}

const handBuilt = 'export const part = { v: 1, id: "p", type: "text", text: "" };\n';

describe("record-versions lint rule", () => {
  it("fails a record built by hand anywhere in src", async () => {
    for (const file of ["src/agent/session/x.ts", "src/transfer/x.ts", "src/ui/chat/x.tsx", "src/storage/repositories.ts"]) {
      const errors = await versionErrors(file, handBuilt);
      expect(errors, file).toHaveLength(1);
      expect(errors[0]).toMatch(/factories/);
    }
  });

  it("catches the quoted and shorthand forms", async () => {
    expect(await versionErrors("src/agent/x.ts", 'export const a = { "v": 2 };\n')).toHaveLength(1);
    expect(await versionErrors("src/agent/x.ts", "const v = 2;\nexport const a = { v };\n")).toHaveLength(1);
  });

  it("lets the factories and migrations write it", async () => {
    expect(await versionErrors("src/storage/factories.ts", handBuilt)).toEqual([]);
    expect(await versionErrors("src/storage/restore.ts", handBuilt)).toEqual([]);
  });

  it("leaves types, destructuring and tests alone", async () => {
    expect(await versionErrors("src/agent/x.ts", "export interface A { v: number }\nexport const f = ({ v }: A) => v;\n")).toEqual([]);
    expect(await versionErrors("test/unit/x.test.ts", handBuilt)).toEqual([]);
  });
});
