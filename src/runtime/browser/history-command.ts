// `history` for the interactive shell: lists the lines typed in this terminal, numbered like bash
// (`history`, `history N`), and clears (`-c`) or deletes (`-d N`) entries. The agent's commands run
// without this command, so there `history` is just-bash's own, which lists nothing (as bash does in
// a non-interactive shell).
import { defineCommand, type CustomCommand } from "just-bash";
import type { LineEditor } from "./line-editor";

const USAGE = "history: usage: history [-c] [-d offset] [n]\n";

export function historyCommand(editor: LineEditor): CustomCommand {
  return defineCommand("history", async (args) => {
    const fail = (message: string, code = 2) => ({ stdout: "", stderr: message, exitCode: code });
    const rest = [...args];
    if (rest[0] === "--help") return { stdout: USAGE.replace("history: usage: ", "Usage: "), stderr: "", exitCode: 0 };
    if (rest[0] === "--") rest.shift();
    if (rest[0] === "-c") {
      editor.clearHistory();
      return { stdout: "", stderr: "", exitCode: 0 };
    }
    if (rest[0] === "-d") {
      const offset = rest[1];
      if (offset === undefined) return fail(`history: -d: option requires an argument\n${USAGE}`);
      const entries = editor.numberedEntries();
      let number = Number(offset);
      // bash 5: a negative offset counts back from the end of the list.
      if (Number.isInteger(number) && number < 0) number = (entries.at(-1)?.number ?? 0) + number + 1;
      if (!/^-?\d+$/.test(offset) || !editor.deleteHistoryEntry(number)) return fail(`history: ${offset}: history position out of range\n`, 1);
      return { stdout: "", stderr: "", exitCode: 0 };
    }
    if (rest[0]?.startsWith("-") && rest[0] !== "-") {
      const option = rest[0];
      if (/^-[anrwps]$/.test(option)) return fail(`history: ${option}: history files are not kept in this terminal\n`, 1);
      return fail(`history: ${option}: invalid option\n${USAGE}`);
    }
    if (rest.length > 1) return fail("history: too many arguments\n", 1);
    let entries = editor.numberedEntries();
    if (rest[0] !== undefined) {
      if (!/^\d+$/.test(rest[0])) return fail(`history: ${rest[0]}: numeric argument required\n`, 1);
      const count = Number(rest[0]);
      entries = count === 0 ? [] : entries.slice(-count);
    }
    const stdout = entries.map(({ number, line }) => `${String(number).padStart(5, " ")}  ${line}\n`).join("");
    return { stdout, stderr: "", exitCode: 0 };
  });
}
