// `npm run bench`: builds the app, runs every test/bench/*.measure.ts and prints the figures as a table.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";

const filter = process.argv.slice(2);
rmSync(".bench/results.jsonl", { force: true });
if (!filter.length || filter.some((f) => /ui|app|bundle/.test(f))) {
  const build = spawnSync("npm", ["run", "--silent", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const run = spawnSync("npx", ["vitest", "run", "--project", "bench", ...filter], { stdio: "inherit" });
if (!existsSync(".bench/results.jsonl")) {
  console.error("No figures were reported.");
  process.exit(run.status || 1);
}
const figures = readFileSync(".bench/results.jsonl", "utf8").trim().split("\n").map((line) => JSON.parse(line));
const width = Math.max(...figures.map((f) => f.name.length));
console.log("\nwebcode benchmark figures");
for (const f of figures) {
  const value = `${f.value} ${f.unit}`.padEnd(16);
  console.log(`  ${f.name.padEnd(width)}  ${value}${f.target ? `target ${f.target}` : ""}${f.note ? `  (${f.note})` : ""}`);
}
process.exit(run.status ?? 0);
