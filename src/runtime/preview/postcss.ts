// The served project's PostCSS, as Vite's dev server applies it: every CSS file the page uses (plain
// CSS, CSS modules before their names are scoped, stylesheets linked from the HTML) goes through the
// project's own postcss with its own postcss.config.* / .postcssrc* / package.json "postcss". The
// config and its plugins are workspace code, so they run as a node program (postcss-program.cjs)
// on the isolated execution host, never here; this side finds the config, batches the files of a
// build into one run, and keeps the answers until a file of the workspace changes.
import { POSTCSS_CONFIGS, WEBCONTAINER_RUNS_IT } from "./unsupported";
import type { PreviewFiles } from "./module-resolution";
import { joinPath } from "./preview-paths";
import program from "./postcss-program.cjs?raw";

/** What PostCSS made of one CSS file. */
export type PostcssOutcome =
  | { kind: "css"; css: string; warnings: string[] }
  /** PostCSS could not run (a plugin not installed, a native module): the CSS is used as written, and `notice` says why. */
  | { kind: "not-run"; notice: string }
  /** The CSS (or a plugin) failed on this file: a build error with where it is. */
  | { kind: "error"; message: string; line?: number; column?: number };

export interface PostcssStep {
  /** The PostCSS config of the served folder ("postcss.config.js"), or undefined when it has none. */
  config(): Promise<string | undefined>;
  /** The CSS of workspace file `path` after the project's PostCSS; undefined when the project has no PostCSS config. */
  process(path: string, css: string): Promise<PostcssOutcome | undefined>;
}

/** Runs a node program on the isolated execution host: its source, standard input and working folder (a workspace path). */
export type NodeProgramRunner = (run: { name: string; source: string; stdin: string; cwd: string }) => Promise<{ exitCode: number; stdout: string; stderr: string }>;

const MARKER = "\u0000webcode-postcss\u0000";
/** The workspace as a node program sees it (node-command.ts). */
const MOUNT = "/workspace";

type Answer = { results: Array<{ css: string; warnings?: string[] } | { error: { message: string; line?: number; column?: number } }> } | { failed: string };

interface Pending {
  path: string;
  css: string;
  resolve(outcome: PostcssOutcome | undefined): void;
}

export class ProjectPostcss implements PostcssStep {
  /** Answers by path and source, for the files as they are now (cleared by `changed`). */
  private answers = new Map<string, Promise<PostcssOutcome | undefined>>();
  private pending: Pending[] = [];
  private flushing: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly files: PreviewFiles,
    /** The served folder (workspace path, "" for the workspace). */
    private readonly root: string,
    private readonly run: NodeProgramRunner,
  ) {}

  /**
   * A file of the workspace changed. Tailwind's output depends on every file its `content` globs
   * match (a class used in a .tsx file), and a config or an installed plugin may have changed: the
   * simplest correct rule is to run PostCSS again for the next build.
   */
  changed(): void {
    this.answers = new Map();
  }

  async config(): Promise<string | undefined> {
    for (const name of POSTCSS_CONFIGS) {
      const path = joinPath(this.root, name);
      if (path !== undefined && (await this.files.stat(path))?.kind === "file") return name;
    }
    const manifest = joinPath(this.root, "package.json");
    if (manifest === undefined || (await this.files.stat(manifest))?.kind !== "file") return undefined;
    try {
      const parsed = JSON.parse(await this.files.readText(manifest)) as { postcss?: unknown };
      return parsed.postcss !== undefined && parsed.postcss !== null ? "package.json" : undefined;
    } catch {
      return undefined;
    }
  }

  process(path: string, css: string): Promise<PostcssOutcome | undefined> {
    const key = `${path}\u0000${css}`;
    let answer = this.answers.get(key);
    if (!answer) {
      answer = new Promise((resolve) => {
        this.pending.push({ path, css, resolve });
        // The CSS files one step of a build's module graph finds arrive together: one run for them all.
        this.flushing ??= setTimeout(() => void this.flush(), 0);
      });
      this.answers.set(key, answer);
    }
    return answer;
  }

  private async flush(): Promise<void> {
    this.flushing = undefined;
    const batch = this.pending.splice(0);
    let config: string | undefined;
    let answer: Answer;
    try {
      config = await this.config();
      if (config === undefined) return batch.forEach((item) => item.resolve(undefined));
      const stdin = JSON.stringify({ config, files: batch.map((item) => ({ path: `${MOUNT}/${item.path}`, css: item.css })) });
      const ran = await this.run({ name: "webcode-postcss.cjs", source: program, stdin, cwd: this.root });
      const line = ran.stdout.split("\n").find((l) => l.startsWith(MARKER));
      answer = line ? (JSON.parse(line.slice(MARKER.length)) as Answer) : { failed: `PostCSS ended with exit code ${ran.exitCode}: ${lastLine(ran.stderr) || "no output"}` };
    } catch (error) {
      answer = { failed: `PostCSS could not be run: ${error instanceof Error ? error.message : String(error)}` };
    }
    batch.forEach((item, i) => item.resolve(outcomeOf(answer, i, config ?? "its config")));
  }
}

function outcomeOf(answer: Answer, index: number, config: string): PostcssOutcome {
  if ("failed" in answer) return { kind: "not-run", notice: `PostCSS (${config}) was not applied by the built-in preview: ${answer.failed}; ${WEBCONTAINER_RUNS_IT}.` };
  const result = answer.results[index];
  if (!result) return { kind: "not-run", notice: `PostCSS (${config}) gave no answer for this file; ${WEBCONTAINER_RUNS_IT}.` };
  if ("error" in result) return { kind: "error", ...result.error };
  return { kind: "css", css: result.css, warnings: result.warnings ?? [] };
}

function lastLine(text: string): string {
  return text.trim().split("\n").pop() ?? "";
}
