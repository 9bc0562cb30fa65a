// git in the browser runtime over the workspace file service: `git status` in a 1,000-file
// repository (clean, and with 10 changed files; target <= 300 ms) and `git commit -a` of 100
// changed files (target <= 1 s), each through runtime.exec as the terminal and the agent run it.
import { it } from "vitest";
import { WorkspaceFiles } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import { openStorage } from "../../src/storage";
import { median, report } from "./report";

const FILES = 1_000;
const RUNS = 5;
const IDENTITY = { GIT_AUTHOR_NAME: "Bench", GIT_AUTHOR_EMAIL: "bench@example.com", GIT_COMMITTER_NAME: "Bench", GIT_COMMITTER_EMAIL: "bench@example.com" };

function moduleText(i: number, version = 0): string {
  const lines = [`// module ${i} v${version}`];
  for (let f = 0; f < 30; f++) lines.push(`export const value${f} = ${i * 100 + f + version};`);
  return lines.join("\n") + "\n";
}

it("measures git status on a 1,000-file repository and a commit of 100 changed files", async () => {
  const storage = await openStorage({ name: `bench-git-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "bench");
  const runtime = createBrowserRuntime(files);
  for (let i = 0; i < FILES; i++) files.writeSync(`src/pkg-${i % 20}/module-${i}.ts`, moduleText(i));
  await files.flush();
  const setup = await runtime.exec("git init -q && git add . && git commit -q -m 'Initial import'", { env: IDENTITY });
  if (setup.exitCode !== 0) throw new Error(setup.output);

  const timed = async (command: string) => {
    const start = performance.now();
    const result = await runtime.exec(command, { env: IDENTITY });
    if (result.exitCode !== 0) throw new Error(result.output);
    return performance.now() - start;
  };
  await timed("git status");
  const clean: number[] = [];
  for (let i = 0; i < RUNS; i++) clean.push(await timed("git status"));
  report({ name: "git status, 1,000-file repository (clean)", value: Math.round(median(clean)), unit: "ms", target: "<= 300", note: `median of ${RUNS}` });

  for (let i = 0; i < 10; i++) files.writeSync(`src/pkg-${i % 20}/module-${i}.ts`, moduleText(i, 1));
  const dirty: number[] = [];
  for (let i = 0; i < RUNS; i++) dirty.push(await timed("git status"));
  report({ name: "git status, 1,000 files, 10 changed", value: Math.round(median(dirty)), unit: "ms", target: "<= 300", note: `median of ${RUNS}` });

  const commits: number[] = [];
  for (let round = 2; round < 2 + 3; round++) {
    for (let i = 0; i < 100; i++) files.writeSync(`src/pkg-${i % 20}/module-${i}.ts`, moduleText(i, round));
    commits.push(await timed(`git commit -q -am 'Round ${round}'`));
  }
  report({ name: "git commit -a, 100 changed files", value: Math.round(median(commits)), unit: "ms", target: "<= 1000", note: "median of 3, stored in IndexedDB (fake-indexeddb)" });
  runtime.dispose();
  files.dispose();
}, 300_000);
