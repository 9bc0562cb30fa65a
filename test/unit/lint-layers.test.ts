import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// Runs the real lint configuration on virtual files placed in each layer.
const eslint = new ESLint({ cwd: process.cwd() });

async function layerErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === "local/layers").map((m) => m.message);
}

describe("layer lint rule", () => {
  it("allows downward imports through a layer's public surface", async () => {
    expect(await layerErrors("src/agent/x.ts", 'import { newId } from "../base";\nexport const a = newId;\n')).toEqual([]);
    expect(await layerErrors("src/ui/x.ts", 'import type { Storage } from "../storage";\nexport type A = Storage;\n')).toEqual([]);
  });

  it("fails an upward import", async () => {
    const errors = await layerErrors("src/storage/x.ts", 'import { a } from "../agent";\nexport const b = a;\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/may not import layer "agent"/);
  });

  it("fails a sideways import", async () => {
    const errors = await layerErrors("src/transfer/x.ts", 'import { a } from "../agent";\nexport const b = a;\n');
    expect(errors[0]).toMatch(/"transfer" may not import layer "agent"/);
  });

  it("fails a reach into another layer's internals", async () => {
    const errors = await layerErrors("src/agent/x.ts", 'import { a } from "../storage/database";\nexport const b = a;\n');
    expect(errors[0]).toMatch(/public surface/);
  });

  it("lets only main.tsx pick a concrete runtime", async () => {
    const fromUi = await layerErrors("src/ui/x.ts", 'import { a } from "../runtime/browser";\nexport const b = a;\n');
    expect(fromUi[0]).toMatch(/Only src\/main.tsx/);
    expect(await layerErrors("src/main.tsx", 'import { a } from "./runtime/browser";\nexport const b = a;\n')).toEqual([]);
  });

  it("keeps test code out of src and prompts inside the agent", async () => {
    expect((await layerErrors("src/ui/x.ts", 'import { a } from "../../test/support/x";\nexport const b = a;\n'))[0]).toMatch(/never import test/);
    expect((await layerErrors("src/ui/x.ts", 'import a from "../../prompts/x.md?raw";\nexport const b = a;\n'))[0]).toMatch(/Only src\/agent/);
  });
});

describe("the chat imports only the agent's types", () => {
  const chatErrors = async (source: string) => {
    const [result] = await eslint.lintText(source, { filePath: "src/ui/chat/x.ts" });
    return (result?.messages ?? []).filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
  };
  it("fails a value import and allows a type import", async () => {
    expect((await chatErrors('import { DEFAULT_AGENT } from "../../agent";\nexport const a = DEFAULT_AGENT;\n'))[0]).toMatch(/only types from the agent/);
    expect(await chatErrors('import type { AgentEvents } from "../../agent";\nexport type A = AgentEvents;\n')).toEqual([]);
  });
});
