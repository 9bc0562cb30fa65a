// npm run / test / start and npx in the browser runtime: scripts run through the shell with
// node_modules/.bin on PATH, pre/post scripts, arguments, exit codes; output streams to the terminal
// as the script writes it, and is captured with npm's own when that is redirected, piped or substituted.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";

let counter = 0;
const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

async function open(packageJson: Record<string, unknown>) {
  const storage = await openStorage({ name: `npm-run-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  await files.writeFile("package.json", JSON.stringify(packageJson));
  const runtime = createBrowserRuntime(files);
  disposers.push(() => {
    runtime.dispose();
    files.dispose();
  });
  return { files, runtime };
}

const SLOW = "echo first; sleep 0.3; echo warn >&2; echo last";

describe("npm run", () => {
  it("streams a script's output as it is written, after npm's banner", async () => {
    const { runtime } = await open({ name: "demo", version: "1.0.0", scripts: { slow: SLOW } });
    const chunks: Array<{ at: number; text: string }> = [];
    const start = Date.now();
    const result = await runtime.exec("npm run slow", { onOutput: (text) => chunks.push({ at: Date.now() - start, text }) });
    expect(result.exitCode).toBe(0);
    expect(result.output).toBe(`\n> demo@1.0.0 slow\n> ${SLOW}\n\nfirst\nwarn\nlast\n`);
    const first = chunks.find((c) => c.text.startsWith("first"))!;
    const last = chunks.find((c) => c.text.endsWith("last\n") && !c.text.includes(">"))!;
    expect(last.at - first.at).toBeGreaterThanOrEqual(250);
  });

  it("is captured with npm's output when redirected, piped or substituted", async () => {
    const { files, runtime } = await open({ name: "demo", scripts: { slow: SLOW } });
    const piped = await runtime.exec("npm run slow | tr a-z A-Z");
    expect(piped.output).toContain("FIRST\nLAST\n");
    expect(piped.output).toContain("warn\n");
    expect(piped.output).not.toContain("first");

    const redirected = await runtime.exec("npm run slow > log.txt");
    expect(redirected.output).toBe("warn\n");
    expect(files.readSync("log.txt")).toBe(`\n> demo slow\n> ${SLOW}\n\nfirst\nlast\n`);

    const substituted = await runtime.exec('x=$(npm run slow 2>&1); echo "[${x}]"');
    expect(substituted.output).toBe(`[\n> demo slow\n> ${SLOW}\n\nfirst\nlast\nwarn]\n`);
  });

  it("runs pre and post scripts, passes arguments, sets npm_ variables, and stops at a failure with its exit code", async () => {
    const { runtime } = await open({
      name: "demo",
      version: "2.0.0",
      scripts: { pretest: "echo before", test: 'echo "$npm_lifecycle_event $npm_package_name@$npm_package_version" args:', posttest: "echo after", broken: "echo trying; exit 3" },
    });
    const test = await runtime.exec("npm test -- --watch x");
    expect(test.exitCode).toBe(0);
    expect(test.output).toMatch(/before\n[\s\S]*test demo@2\.0\.0 args: --watch x\n[\s\S]*after\n/);
    const broken = await runtime.exec("npm run broken; echo code=$?");
    expect(broken.output).toContain("trying\n");
    expect(broken.output).toContain("npm error Lifecycle script `broken` failed with error:\nnpm error code 3");
    expect(broken.output).toMatch(/code=3\n$/);
  });

  it("takes its options before the script's name as after it (npm run --silent build, npm run -s build -- x)", async () => {
    const { runtime } = await open({ name: "demo", scripts: { build: "echo building" } });
    expect(await runtime.exec("npm run --silent build")).toMatchObject({ exitCode: 0, output: "building\n" });
    expect((await runtime.exec("npm run -s build -- --flag")).output).toBe("building --flag\n");
    expect((await runtime.exec("npm run build --silent")).output).toBe("building\n");
    expect((await runtime.exec("npm run --silent")).output).toContain("build\n    echo building");
  });

  it("says what is missing, lists scripts, and starts server.js when there is no start script", async () => {
    const { files, runtime } = await open({ name: "demo", scripts: { build: "echo building" } });
    const missing = await runtime.exec("npm test");
    expect(missing.exitCode).toBe(1);
    expect(missing.output).toContain('npm error Missing script: "test"');
    expect((await runtime.exec("npm run")).output).toContain("build\n    echo building");
    await files.writeFile("server.js", "console.log('hi')\n");
    const start = await runtime.exec("npm start");
    expect(start.output).toContain("> node server.js");
  });

  it("finds node_modules/.bin from a subfolder, in scripts and with npx", async () => {
    const { files, runtime } = await open({ name: "demo", scripts: { greet: "greet --loud" } });
    await files.writeFile("node_modules/.bin/greet", '#!/bin/sh\necho "greeted $@ in $(pwd)"\n');
    await files.mkdir("src/deep");
    const run = await runtime.exec("npm run greet", { cwd: "src/deep" });
    expect(run.output).toContain("greeted --loud in /workspace\n");
    const npx = await runtime.exec("npx greet 'two words'", { cwd: "src/deep" });
    expect(npx.output).toBe("greeted two words in /workspace/src/deep\n");
    const absent = await runtime.exec("npx cowsay hi");
    expect(absent.exitCode).toBe(127);
    expect(absent.output).toContain("npx: cowsay is not installed in this project. Install it first (npm install cowsay)");
  });
});
