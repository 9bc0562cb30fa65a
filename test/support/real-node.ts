// Runs a program with this machine's Node in a folder, as the differential tests compare ours with:
// its stdout, then "exit=<status>" (what `node main.js; echo "exit=$?"` prints in our shell).
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export function realNodeOutput(dir: string, program: string, extra: Record<string, string> = {}): string {
  writeFileSync(join(dir, "main.js"), program);
  for (const [path, text] of Object.entries(extra)) writeFileSync(join(dir, path), text);
  try {
    return execFileSync(process.execPath, ["main.js"], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }) + "exit=0\n";
  } catch (error) {
    const failed = error as { stdout: string; status: number };
    return `${failed.stdout}exit=${failed.status}\n`;
  }
}
