// The browser runtime's interactive shell, driven the way xterm drives it: raw keystrokes in,
// ANSI out. Assertions look at what commands did (files, output), not at exact escape sequences.
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFiles, type FileChange } from "../../src/runtime";
import { createBrowserRuntime } from "../../src/runtime/browser";
import type { InteractiveShell } from "../../src/runtime/browser/interactive-shell";
import { KeyReader } from "../../src/runtime/browser/key-reader";
import { stripAnsi, textWidth } from "../../src/runtime/browser/terminal-text";
import { openStorage } from "../../src/storage";

const KEYS = {
  enter: "\r",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  home: "\x1b[H",
  end: "\x1b[F",
  delete: "\x1b[3~",
  backspace: "\x7f",
  tab: "\t",
  ctrlA: "\x01",
  ctrlE: "\x05",
  ctrlU: "\x15",
  ctrlK: "\x0b",
  ctrlW: "\x17",
  ctrlC: "\x03",
  ctrlL: "\x0c",
};

let counter = 0;
const disposers: Array<() => void> = [];
afterEach(() => {
  for (const dispose of disposers.splice(0)) dispose();
});

async function openTestShell(cols = 80) {
  const storage = await openStorage({ name: `runtime-shell-${counter++}-${Date.now()}` });
  const files = await WorkspaceFiles.open(storage, "ws");
  const runtime = createBrowserRuntime(files);
  const shell = runtime.openShell({ cols, rows: 24 }) as InteractiveShell;
  let raw = "";
  shell.onData((data) => (raw += data));
  disposers.push(() => {
    shell.dispose();
    runtime.dispose();
    files.dispose();
  });
  const type = async (...keys: string[]) => {
    for (const key of keys) shell.write(key);
    await shell.whenIdle();
  };
  const mark = () => raw.length;
  return {
    files,
    runtime,
    shell,
    type,
    mark,
    raw: () => raw,
    /** Output since `from`, without escape sequences and carriage returns. */
    text: (from = 0) => stripAnsi(raw.slice(from)).replace(/\r/g, ""),
  };
}

describe("interactive shell", () => {
  it("shows a coloured prompt with the cwd and keeps cd across commands", async () => {
    const t = await openTestShell();
    await t.files.writeFile("src/app/main.ts", "x");
    await t.type();
    expect(t.raw()).toContain("\x1b[");
    expect(t.text()).toMatch(/webcode:~\$ $/);
    await t.type("cd src", KEYS.enter);
    expect(t.text()).toMatch(/webcode:~\/src\$ $/);
    const before = t.mark();
    await t.type("ls", KEYS.enter);
    expect(t.text(before)).toContain("app");
    await t.type("cd app && pwd", KEYS.enter);
    expect(t.text()).toContain("/workspace/src/app");
    expect(t.text()).toMatch(/webcode:~\/src\/app\$ $/);
    await t.type("cd /tmp", KEYS.enter);
    expect(t.text()).toMatch(/webcode:\/tmp\$ $/);
  });

  it("prints the banner and prompt before keys typed right after opening", async () => {
    const t = await openTestShell();
    // As the terminal panel does: subscribe and type in the same task.
    const shell = t.runtime.openShell({ cols: 80, rows: 24 }) as InteractiveShell;
    let raw = "";
    shell.onData((data) => (raw += data));
    shell.write("echo early\r");
    await shell.whenIdle();
    shell.dispose();
    const text = stripAnsi(raw).replace(/\r/g, "");
    expect(text.indexOf("Browser runtime")).toBeGreaterThan(-1);
    expect(text.indexOf("Browser runtime")).toBeLessThan(text.indexOf("echo early"));
    expect(text).toContain("early\n");
  });

  it("keeps exported variables between commands", async () => {
    const t = await openTestShell();
    await t.type("export GREETING=hallo", KEYS.enter);
    const before = t.mark();
    await t.type("echo $GREETING", KEYS.enter);
    expect(t.text(before)).toContain("hallo\n");
  });

  it("keeps the last exit status ($?) between lines, like bash", async () => {
    const t = await openTestShell();
    await t.type("false", KEYS.enter);
    let before = t.mark();
    await t.type("echo rc=$?", KEYS.enter);
    expect(t.text(before)).toContain("rc=1\n");
    await t.type("(exit 7)", KEYS.enter);
    before = t.mark();
    await t.type("echo rc=$? again=$?", KEYS.enter);
    expect(t.text(before)).toContain("rc=7 again=7\n");
    await t.type("nosuchcommand", KEYS.enter);
    before = t.mark();
    await t.type("echo rc=$?", KEYS.enter);
    expect(t.text(before)).toContain("rc=127\n");
    // $LINENO is not shifted by how the status is carried.
    before = t.mark();
    await t.type("echo line=$LINENO", KEYS.enter);
    expect(t.text(before)).toContain("line=1\n");
  });

  it("keeps aliases between lines; unalias removes them", async () => {
    const t = await openTestShell();
    await t.files.writeFile("seen.txt", "x");
    await t.type("alias ll='ls -l'", KEYS.enter);
    let before = t.mark();
    await t.type("ll", KEYS.enter);
    expect(t.text(before)).not.toContain("command not found");
    expect(t.text(before)).toContain("seen.txt");
    await t.type("unalias ll", KEYS.enter);
    before = t.mark();
    await t.type("ll", KEYS.enter);
    expect(t.text(before)).toContain("ll: command not found");
  });

  it("writes output with CRLF line endings and errors in red", async () => {
    const t = await openTestShell();
    const before = t.mark();
    await t.type("printf 'a\\nb\\n'", KEYS.enter);
    expect(t.raw().slice(before)).toContain("a\r\nb\r\n");
    const errors = t.mark();
    await t.type("cat missing.txt", KEYS.enter);
    expect(t.raw().slice(errors)).toMatch(/\x1b\[31mcat: missing\.txt: No such file or directory\r\n\x1b\[0m/);
  });

  it("edits the line: cursor moves, Home/End, Backspace, Delete, Ctrl-A/E/U/K/W", async () => {
    const t = await openTestShell();
    // "touch wrld.txt" -> insert "o" after "w" using Left.
    await t.type("touch wrld.txt", KEYS.left, KEYS.left, KEYS.left, KEYS.left, KEYS.left, KEYS.left, KEYS.left, "o", KEYS.enter);
    expect(await t.files.exists("world.txt")).toBe(true);
    // Home + Delete removes the first char; End + Backspace the last.
    await t.type("Xtouch home.txtX", KEYS.home, KEYS.delete, KEYS.end, KEYS.backspace, KEYS.enter);
    expect(await t.files.exists("home.txt")).toBe(true);
    // Ctrl-A then typing inserts at the start; Ctrl-E appends.
    await t.type("uch ctrl", KEYS.ctrlA, "to", KEYS.ctrlE, "-a.txt", KEYS.enter);
    expect(await t.files.exists("ctrl-a.txt")).toBe(true);
    // Ctrl-U drops everything before the cursor.
    await t.type("garbage", KEYS.ctrlU, "touch u.txt", KEYS.enter);
    expect(await t.files.exists("u.txt")).toBe(true);
    // Ctrl-K drops everything after the cursor.
    await t.type("touch k.txt junk", KEYS.left, KEYS.left, KEYS.left, KEYS.left, KEYS.left, KEYS.ctrlK, KEYS.enter);
    expect(await t.files.exists("k.txt")).toBe(true);
    expect(await t.files.exists("junk")).toBe(false);
    // Ctrl-W drops the word before the cursor.
    await t.type("touch w.txt oops", KEYS.ctrlW, KEYS.enter);
    expect(await t.files.exists("w.txt")).toBe(true);
    expect(await t.files.exists("oops")).toBe(false);
  });

  it("recalls history with Up and Down, keeping the draft", async () => {
    const t = await openTestShell();
    await t.type("echo first", KEYS.enter, "echo second", KEYS.enter);
    let before = t.mark();
    await t.type(KEYS.up, KEYS.up, KEYS.enter);
    expect(t.text(before)).toContain("first\n");
    expect(t.text(before)).not.toContain("second\n");
    before = t.mark();
    await t.type("echo dra", KEYS.up, KEYS.down, "ft", KEYS.enter);
    expect(t.text(before)).toContain("draft\n");
    // Up on an empty history position goes back to the most recent command.
    before = t.mark();
    await t.type(KEYS.up, KEYS.enter);
    expect(t.text(before)).toContain("draft\n");
  });

  it("Ctrl-C stops a running command promptly and discards a typed line", async () => {
    const t = await openTestShell();
    const started = Date.now();
    t.shell.write("sleep 5; touch late.txt\r");
    await new Promise((resolve) => setTimeout(resolve, 100));
    await t.type(KEYS.ctrlC);
    // The command alone would take 5 s; the bound leaves room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(4000);
    expect(t.text()).toContain("^C");
    expect(t.text()).toMatch(/webcode:~\$ $/);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await t.files.exists("late.txt")).toBe(false);

    await t.type("touch discarded.txt", KEYS.ctrlC, KEYS.enter);
    expect(await t.files.exists("discarded.txt")).toBe(false);
    // The discarded line is not in history.
    await t.type(KEYS.up, KEYS.enter);
    expect(await t.files.exists("discarded.txt")).toBe(false);
  });

  it("Ctrl-L clears the screen and redraws the prompt with the line", async () => {
    const t = await openTestShell();
    await t.type("echo kept");
    const before = t.mark();
    await t.type(KEYS.ctrlL);
    const out = t.raw().slice(before);
    expect(out).toContain("\x1b[2J");
    expect(stripAnsi(out)).toContain("webcode:~$ echo kept");
  });

  it("completes paths with Tab: one match, common prefix, listing, folders get a slash", async () => {
    const t = await openTestShell();
    await t.files.writeFile("alpha.txt", "ALPHA\n");
    await t.files.writeFile("apple-one.txt", "1");
    await t.files.writeFile("apple-two.txt", "2");
    await t.files.writeFile("src/deep/file.md", "DEEP\n");
    let before = t.mark();
    await t.type("cat al", KEYS.tab, KEYS.enter);
    expect(t.text(before)).toContain("ALPHA");

    await t.type("touch app", KEYS.tab);
    expect(t.text()).toMatch(/touch apple-$/);
    before = t.mark();
    await t.type(KEYS.tab);
    expect(t.text(before)).toMatch(/apple-one\.txt\s+apple-two\.txt/);
    await t.type(KEYS.ctrlU);

    before = t.mark();
    await t.type("cat s", KEYS.tab, "d", KEYS.tab, KEYS.tab, KEYS.enter);
    expect(t.text(before)).toContain("cat src/deep/file.md");
    expect(t.text(before)).toContain("DEEP");

    // Command names complete in command position.
    before = t.mark();
    await t.type("ech", KEYS.tab, "done", KEYS.enter);
    expect(t.text(before)).toContain("done\n");
  });

  it("Tab on an empty line only beeps (no list of every command)", async () => {
    const t = await openTestShell();
    await t.files.writeFile("one.txt", "1");
    await t.files.writeFile("two.txt", "2");
    await t.type();
    let before = t.mark();
    await t.type(KEYS.tab, KEYS.tab);
    expect(t.raw().slice(before)).toBe("\x07\x07");
    // Blanks only count as empty too; a word still completes.
    await t.type("  ");
    before = t.mark();
    await t.type(KEYS.tab);
    expect(t.raw().slice(before)).toBe("\x07");
    await t.type(KEYS.ctrlU, "ech", KEYS.tab);
    expect(t.text()).toMatch(/echo $/);
  });

  it("takes multi-byte input and wide characters", async () => {
    const t = await openTestShell();
    const before = t.mark();
    await t.type("echo héllo 日本 🎉", KEYS.enter);
    expect(t.text(before)).toContain("héllo 日本 🎉\n");
    // Editing moves over whole characters: delete the emoji with one Backspace.
    await t.type("echo 日本🎉", KEYS.backspace, KEYS.left, KEYS.backspace, "x", KEYS.enter);
    expect(t.text()).toContain("x本\n");
    expect(textWidth("日本🎉")).toBe(6);
  });

  it("runs a bracketed paste of several lines in order and keeps an unfinished last line", async () => {
    const t = await openTestShell();
    const before = t.mark();
    await t.type("\x1b[200~echo first\necho second\r\nmkdir pasted\n\x1b[201~");
    const text = t.text(before);
    expect(text.indexOf("first\n")).toBeGreaterThan(-1);
    expect(text.indexOf("second\n")).toBeGreaterThan(text.indexOf("first\n"));
    expect(await t.files.exists("pasted")).toBe(true);

    await t.type("\x1b[200~touch one.txt\ntouch two.txt\x1b[201~");
    expect(await t.files.exists("one.txt")).toBe(true);
    expect(await t.files.exists("two.txt")).toBe(false);
    await t.type(KEYS.enter);
    expect(await t.files.exists("two.txt")).toBe(true);
  });

  it("queues keys typed while a command runs and runs them after it", async () => {
    const t = await openTestShell();
    t.shell.write("sleep 0.2\r");
    t.shell.write("touch after.txt\r");
    await t.shell.whenIdle();
    expect(await t.files.exists("after.txt")).toBe(true);
  });

  it("attributes file changes to the terminal", async () => {
    const t = await openTestShell();
    const changes: FileChange[] = [];
    t.files.onDidChange((batch) => changes.push(...batch));
    await t.type("echo x > made.txt", KEYS.enter);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(changes).toContainEqual(expect.objectContaining({ path: "made.txt", source: "terminal" }));
  });

  it("says pnpm needs WebContainer", async () => {
    const t = await openTestShell();
    const before = t.mark();
    await t.type("pnpm -v", KEYS.enter);
    expect(t.text(before)).toMatch(/pnpm is not available in the browser runtime\. It needs the WebContainer runtime/);
  });

  it("wraps long lines and keeps the cursor where the editor says", async () => {
    const t = await openTestShell(20);
    const screen = new MiniTerminal(20);
    t.shell.onData((data) => screen.write(data));
    await t.type(KEYS.ctrlL); // start from a known screen
    // prompt "webcode:~$ " is 11 cells; the line runs over three rows of 20.
    await t.type("echo 0123456789abcdefghij");
    expect(screen.rows().slice(0, 2)).toEqual(["webcode:~$ echo 0123", "456789abcdefghij"]);
    expect(screen.cursor).toEqual({ row: 1, col: 16 });
    await t.type(KEYS.home);
    expect(screen.cursor).toEqual({ row: 0, col: 11 });
    await t.type(KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.right, KEYS.right);
    expect(screen.cursor).toEqual({ row: 1, col: 1 });
    await t.type(KEYS.end, "wxyz");
    // Exactly 40 cells: the cursor sits at the start of the third row.
    expect(screen.rows().slice(0, 3)).toEqual(["webcode:~$ echo 0123", "456789abcdefghijwxyz", ""]);
    expect(screen.cursor).toEqual({ row: 2, col: 0 });
    await t.type(KEYS.backspace);
    expect(screen.rows().slice(0, 2)).toEqual(["webcode:~$ echo 0123", "456789abcdefghijwxy"]);
    expect(screen.rows()[2] ?? "").toBe("");
    expect(screen.cursor).toEqual({ row: 1, col: 19 });
    await t.type(KEYS.enter);
    expect(screen.rows()[2]).toBe("0123456789abcdefghij");
    expect(screen.rows()[3]).toBe("wxy");
    expect(screen.rows()[4]).toBe("webcode:~$");
  });

  it("places the cursor correctly after wide characters", async () => {
    const t = await openTestShell(40);
    const screen = new MiniTerminal(40);
    t.shell.onData((data) => screen.write(data));
    await t.type(KEYS.ctrlL, "echo 日本語", KEYS.left);
    expect(screen.cursor).toEqual({ row: 0, col: 11 + 5 + 4 });
  });
});

/** Just enough of a VT100 to check what the shell draws: text, wrapping, CR/LF, cursor moves, erase. */
class MiniTerminal {
  private screen: string[][] = [[]];
  private row = 0;
  private col = 0;
  private pendingWrap = false;

  constructor(private readonly cols: number) {}

  get cursor() {
    return { row: this.row, col: this.col };
  }

  rows(): string[] {
    return this.screen.map((cells) => cells.join("").trimEnd());
  }

  private line(row: number): string[] {
    while (this.screen.length <= row) this.screen.push([]);
    return this.screen[row]!;
  }

  write(data: string): void {
    let i = 0;
    while (i < data.length) {
      const ch = data[i]!;
      if (ch === "\x1b") {
        const match = /^\x1b\[([0-9;?]*)([A-Za-z~])/.exec(data.slice(i));
        if (!match) {
          i++;
          continue;
        }
        this.csi(match[1]!, match[2]!);
        i += match[0].length;
        continue;
      }
      i++;
      if (ch === "\r") {
        this.col = 0;
        this.pendingWrap = false;
      } else if (ch === "\n") {
        this.row++;
        this.line(this.row);
        this.pendingWrap = false;
      } else if (ch >= " ") {
        const point = String.fromCodePoint(data.codePointAt(i - 1)!);
        if (point.length === 2) i++;
        this.put(point);
      }
    }
  }

  private put(char: string): void {
    const width = textWidth(char);
    if (this.pendingWrap || this.col + width > this.cols) {
      this.row++;
      this.col = 0;
      this.pendingWrap = false;
    }
    const cells = this.line(this.row);
    while (cells.length < this.col) cells.push(" ");
    cells[this.col] = char;
    if (width === 2) cells[this.col + 1] = "";
    this.col += width;
    if (this.col >= this.cols) {
      this.col = this.cols - 1;
      this.pendingWrap = true;
    }
  }

  private csi(params: string, final: string): void {
    const n = Number(params.split(";")[0]) || 1;
    this.pendingWrap = false;
    switch (final) {
      case "A":
        this.row = Math.max(0, this.row - n);
        break;
      case "B":
        this.row += n;
        break;
      case "C":
        this.col = Math.min(this.cols - 1, this.col + n);
        break;
      case "D":
        this.col = Math.max(0, this.col - n);
        break;
      case "G":
        this.col = n - 1;
        break;
      case "H":
        this.row = 0;
        this.col = 0;
        break;
      case "J":
        if (params === "2" || params === "3") this.screen = [[]];
        else {
          this.line(this.row).length = this.col;
          this.screen.length = this.row + 1;
        }
        break;
      case "K":
        this.line(this.row).length = this.col;
        break;
    }
  }
}

describe("KeyReader", () => {
  it("joins escape sequences split across chunks and maps keys", () => {
    const reader = new KeyReader();
    expect(reader.read("ab\x1b")).toEqual([{ type: "text", text: "ab" }]);
    expect(reader.read("[A")).toEqual([{ type: "key", name: "up" }]);
    expect(reader.read("\x1bOH\x1b[4~\x1b[1;5C\r\n")).toEqual([
      { type: "key", name: "home" },
      { type: "key", name: "end" },
      { type: "key", name: "word-right" },
      { type: "key", name: "enter" },
    ]);
  });

  it("turns a paste split across chunks into text and Enter keys", () => {
    const reader = new KeyReader();
    expect(reader.read("\x1b[200~line one\nli")).toEqual([]);
    expect(reader.read("ne two\x1b[20")).toEqual([]);
    expect(reader.read("1~")).toEqual([
      { type: "text", text: "line one" },
      { type: "key", name: "enter" },
      { type: "text", text: "line two" },
    ]);
  });
});
