// node:test for the browser runtime: test/it, describe/suite, hooks, subtests (t.test), skip/todo/
// only, t.assert, and Node's spec reporter output with its summary (ℹ tests … ℹ duration_ms) and
// failing-tests recap. Hand-written: Node's own runner lives inside Node's internals.
import { inspect } from "node-inspect-extracted";

type TestFn = (t: TestContext, done?: (error?: unknown) => void) => unknown;
type Hook = () => unknown;
interface TestOptions {
  skip?: boolean | string;
  todo?: boolean | string;
  only?: boolean;
  timeout?: number;
  concurrency?: number | boolean;
}

interface Node {
  name: string;
  kind: "test" | "suite";
  fn?: TestFn;
  options: TestOptions;
  children: Node[];
  hooks: { before: Hook[]; after: Hook[]; beforeEach: Hook[]; afterEach: Hook[] };
  parent?: Node;
  location?: string;
}

interface Result {
  name: string;
  status: "pass" | "fail" | "skip" | "todo";
  error?: unknown;
  ms: number;
  location?: string;
  depth: number;
}

export interface TestContext {
  name: string;
  signal: AbortSignal;
  test(name: string, options?: TestOptions | TestFn, fn?: TestFn): Promise<void>;
  skip(message?: string): void;
  todo(message?: string): void;
  diagnostic(message: string): void;
  plan(count: number): void;
  before(fn: Hook): void;
  after(fn: Hook): void;
  beforeEach(fn: Hook): void;
  afterEach(fn: Hook): void;
  assert: unknown;
  mock: unknown;
}

function newNode(name: string, kind: Node["kind"], options: TestOptions, fn?: TestFn, parent?: Node): Node {
  return { name, kind, fn, options, children: [], hooks: { before: [], after: [], beforeEach: [], afterEach: [] }, parent };
}

function args(nameOrOptions: unknown, optionsOrFn: unknown, maybeFn: unknown): [string, TestOptions, TestFn | undefined] {
  let name = "<anonymous>";
  let options: TestOptions = {};
  let fn: TestFn | undefined;
  for (const value of [nameOrOptions, optionsOrFn, maybeFn]) {
    if (typeof value === "string") name = value;
    else if (typeof value === "function") {
      fn = value as TestFn;
      if (name === "<anonymous>" && (value as { name?: string }).name) name = (value as { name: string }).name;
    } else if (value && typeof value === "object") options = value as TestOptions;
  }
  return [name, options, fn];
}

/** Where the test was declared: the first stack frame in a program file. */
function callerLocation(): string | undefined {
  const stack = new Error().stack?.split("\n") ?? [];
  for (const line of stack.slice(2)) {
    const match = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line);
    if (match && !match[1]!.includes("/node_modules/") && !/test-runner|node-main/.test(match[1]!)) return `${match[1]!.replace("file://", "")}:${match[2]}:${match[3]}`;
  }
  return undefined;
}

export function createTestModule(write: (text: string) => void, assert: unknown, cwd: () => string, programStack: (stack: string) => string = (stack) => stack) {
  let root = newNode("<root>", "suite", {});
  let current = root;
  let running: Node | undefined;
  const results: Result[] = [];
  const counts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const started = performance.now();

  const register = (kind: Node["kind"]) =>
    function declare(nameOrOptions?: unknown, optionsOrFn?: unknown, maybeFn?: unknown): Promise<void> {
      const [name, options, fn] = args(nameOrOptions, optionsOrFn, maybeFn);
      const node = newNode(name, kind, options, fn, current);
      node.location = callerLocation();
      current.children.push(node);
      if (kind === "suite" && fn) {
        const previous = current;
        current = node;
        try {
          (fn as () => unknown)();
        } finally {
          current = previous;
        }
      }
      return Promise.resolve();
    };

  const test = Object.assign(register("test"), {
    skip: (name?: unknown, options?: unknown, fn?: unknown) => register("test")(name, { ...(typeof options === "object" ? options : {}), skip: true }, typeof options === "function" ? options : fn),
    todo: (name?: unknown, options?: unknown, fn?: unknown) => register("test")(name, { ...(typeof options === "object" ? options : {}), todo: true }, typeof options === "function" ? options : fn),
    only: (name?: unknown, options?: unknown, fn?: unknown) => register("test")(name, options, fn),
  });
  const describe = Object.assign(register("suite"), {
    skip: (name?: unknown, fn?: unknown) => register("suite")(name, { skip: true }, fn),
    todo: (name?: unknown, fn?: unknown) => register("suite")(name, { todo: true }, fn),
    only: (name?: unknown, fn?: unknown) => register("suite")(name, fn),
  });
  const hook = (kind: keyof Node["hooks"]) => (fn: Hook) => void (running ?? current).hooks[kind].push(fn);

  const indent = (depth: number) => "  ".repeat(depth);
  const ms = (value: number) => `(${value.toFixed(6).replace(/\.?0+$/, "") || "0"}ms)`;
  const describeError = (error: unknown, depth: number) => {
    let text: string;
    if (error instanceof Error && typeof error.stack === "string") {
      const original = error.stack;
      error.stack = programStack(original);
      text = inspect(error);
      error.stack = original;
    } else text = inspect(error);
    return `${text
      .split("\n")
      .map((line) => `${indent(depth + 1)}${line}`)
      .join("\n")}\n`;
  };

  const eachHooks = (node: Node | undefined, kind: "beforeEach" | "afterEach"): Hook[] => {
    const chain: Hook[] = [];
    for (let n = node; n; n = n.parent) chain.unshift(...n.hooks[kind]);
    return kind === "afterEach" ? chain.reverse() : chain;
  };

  async function runTest(node: Node, depth: number): Promise<void> {
    const start = performance.now();
    const skip = node.options.skip;
    const todo = node.options.todo;
    if (skip) {
      counts.tests++;
      counts.skipped++;
      write(`${indent(depth)}﹣ ${node.name} ${ms(0)} # ${typeof skip === "string" ? skip : "SKIP"}\n`);
      return;
    }
    let error: unknown;
    let skipped: string | undefined;
    const previous = running;
    running = node;
    const controller = new AbortController();
    const context: TestContext = {
      name: node.name,
      signal: controller.signal,
      test: async (name: string, options?: TestOptions | TestFn, fn?: TestFn) => {
        const [n, o, f] = args(name, options, fn);
        const child = newNode(n, "test", o, f, node);
        child.location = callerLocation();
        await runTest(child, depth + 1);
      },
      skip: (message?: string) => void (skipped = message ?? "SKIP"),
      todo: () => undefined,
      diagnostic: (message: string) => write(`${indent(depth + 1)}# ${message}\n`),
      plan: () => undefined,
      before: (fn) => void fn(),
      after: (fn) => void node.hooks.after.push(fn),
      beforeEach: (fn) => void node.hooks.beforeEach.push(fn),
      afterEach: (fn) => void node.hooks.afterEach.push(fn),
      assert,
      mock: undefined,
    };
    try {
      for (const fn of eachHooks(node.parent, "beforeEach")) await fn();
      if (node.fn) {
        if (node.fn.length >= 2) {
          await new Promise<void>((resolve, reject) => {
            const result = node.fn!(context, (failure?: unknown) => (failure ? reject(failure) : resolve()));
            if (result && typeof (result as Promise<unknown>).then === "function") (result as Promise<unknown>).then(undefined, reject);
          });
        } else await node.fn(context);
      }
      for (const fn of node.hooks.after) await fn();
      for (const fn of eachHooks(node.parent, "afterEach")) await fn();
    } catch (caught) {
      error = caught;
    } finally {
      running = previous;
    }
    const elapsed = performance.now() - start;
    counts.tests++;
    if (error !== undefined && !todo) {
      counts.fail++;
      // The error block ends with a blank line in Node's spec report (not in its failing-tests recap).
      write(`${indent(depth)}✖ ${node.name} ${ms(elapsed)}\n${describeError(error, depth)}\n`);
      results.push({ name: node.name, status: "fail", error, ms: elapsed, location: node.location, depth });
    } else if (todo) {
      counts.todo++;
      write(`${indent(depth)}﹣ ${node.name} ${ms(elapsed)} # ${typeof todo === "string" ? todo : "TODO"}\n`);
    } else if (skipped !== undefined) {
      counts.skipped++;
      write(`${indent(depth)}﹣ ${node.name} ${ms(elapsed)} # ${skipped}\n`);
    } else {
      counts.pass++;
      write(`${indent(depth)}✔ ${node.name} ${ms(elapsed)}\n`);
    }
  }

  async function runSuite(node: Node, depth: number): Promise<void> {
    const start = performance.now();
    counts.suites++;
    if (node.options.skip) {
      write(`${indent(depth)}﹣ ${node.name} ${ms(0)} # SKIP\n`);
      return;
    }
    write(`${indent(depth)}▶ ${node.name}\n`);
    const failedBefore = counts.fail;
    let hookError: unknown;
    try {
      for (const fn of node.hooks.before) await fn();
    } catch (error) {
      hookError = error;
    }
    if (hookError === undefined) for (const child of node.children) await runNode(child, depth + 1);
    try {
      for (const fn of node.hooks.after) await fn();
    } catch (error) {
      hookError ??= error;
    }
    const elapsed = performance.now() - start;
    if (hookError !== undefined) {
      counts.fail++;
      write(`${indent(depth)}✖ ${node.name} ${ms(elapsed)}\n${describeError(hookError, depth)}\n`);
      results.push({ name: node.name, status: "fail", error: hookError, ms: elapsed, location: node.location, depth });
    } else write(`${indent(depth)}${counts.fail > failedBefore ? "✖" : "✔"} ${node.name} ${ms(elapsed)}\n`);
  }

  const runNode = (node: Node, depth: number) => (node.kind === "suite" ? runSuite(node, depth) : runTest(node, depth));

  return {
    module: Object.assign(test, {
      test,
      it: test,
      describe,
      suite: describe,
      before: hook("before"),
      after: hook("after"),
      beforeEach: hook("beforeEach"),
      afterEach: hook("afterEach"),
      mock: undefined,
    }),
    /** Whether the program declared any test (then it ends with the report). */
    hasTests: () => root.children.length > 0,
    /** Runs the tests declared since the last call (one test file's). */
    async runDeclared(): Promise<void> {
      const declared = root;
      root = newNode("<root>", "suite", {});
      current = root;
      for (const fn of declared.hooks.before) await fn();
      for (const child of declared.children) await runNode(child, 0);
      for (const fn of declared.hooks.after) await fn();
    },
    /** Prints the summary; returns whether every test passed. */
    report(): boolean {
      const duration = performance.now() - started;
      write(
        [
          `ℹ tests ${counts.tests}`,
          `ℹ suites ${counts.suites}`,
          `ℹ pass ${counts.pass}`,
          `ℹ fail ${counts.fail}`,
          `ℹ cancelled ${counts.cancelled}`,
          `ℹ skipped ${counts.skipped}`,
          `ℹ todo ${counts.todo}`,
          `ℹ duration_ms ${duration.toFixed(6).replace(/\.?0+$/, "")}`,
        ].join("\n") + "\n",
      );
      const failed = results.filter((result) => result.status === "fail");
      if (failed.length > 0) {
        write("\n✖ failing tests:\n");
        // Entries are separated by a blank line; the last ends the output.
        for (const result of failed) {
          const where = result.location ? `test at ${result.location.replace(`${cwd()}/`, "")}\n` : "";
          write(`\n${where}✖ ${result.name} ${ms(result.ms)}\n${describeError(result.error, 0)}`);
        }
      }
      return counts.fail === 0;
    },
  };
}

export type TestModule = ReturnType<typeof createTestModule>;
