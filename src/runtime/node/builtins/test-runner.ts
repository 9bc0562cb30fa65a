// node:test for the browser runtime: test/it, describe/suite, hooks, subtests (t.test), skip/todo/
// only, t.assert; the report (spec or TAP) is test-reporters.ts's. Hand-written: Node's own runner
// lives inside Node's internals.
import { createReporter, type Finished, type ReporterName } from "./test-reporters";

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

export function createTestModule(
  write: (text: string) => void,
  assert: unknown,
  cwd: () => string,
  programStack: (stack: string) => string = (stack) => stack,
  reporterName: ReporterName = "spec",
) {
  let root = newNode("<root>", "suite", {});
  let current = root;
  let running: Node | undefined;
  const reporter = createReporter(reporterName, { write, cwd, programStack });
  const failures: Finished[] = [];
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

  const eachHooks = (node: Node | undefined, kind: "beforeEach" | "afterEach"): Hook[] => {
    const chain: Hook[] = [];
    for (let n = node; n; n = n.parent) chain.unshift(...n.hooks[kind]);
    return kind === "afterEach" ? chain.reverse() : chain;
  };

  async function runTest(node: Node, depth: number): Promise<void> {
    const start = performance.now();
    const skip = node.options.skip;
    const todo = node.options.todo;
    reporter.started(node.name, "test", depth, Boolean(skip));
    if (skip) {
      counts.tests++;
      counts.skipped++;
      reporter.finished({ name: node.name, kind: "test", depth, outcome: "skip", reason: typeof skip === "string" ? skip : undefined, ms: 0 });
      return;
    }
    let error: unknown;
    let skipped: string | undefined;
    const diagnostics: string[] = [];
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
      skip: (message?: string) => void (skipped = message ?? ""),
      todo: () => undefined,
      diagnostic: (message: string) => void diagnostics.push(message),
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
    const base = { name: node.name, kind: "test" as const, depth, ms: elapsed, location: node.location, diagnostics };
    if (error !== undefined && !todo) {
      counts.fail++;
      const entry: Finished = { ...base, outcome: "fail", error };
      reporter.finished(entry);
      failures.push(entry);
    } else if (todo) {
      counts.todo++;
      const entry: Finished = { ...base, outcome: "todo", reason: typeof todo === "string" ? todo : undefined, error };
      reporter.finished(entry);
      // Listed with the failing tests, though it does not fail the run.
      if (error !== undefined) failures.push(entry);
    } else if (skipped !== undefined) {
      counts.skipped++;
      reporter.finished({ ...base, outcome: "skip", reason: skipped || undefined });
    } else {
      counts.pass++;
      reporter.finished({ ...base, outcome: "pass" });
    }
  }

  async function runSuite(node: Node, depth: number): Promise<void> {
    const start = performance.now();
    counts.suites++;
    reporter.started(node.name, "suite", depth, Boolean(node.options.skip));
    if (node.options.skip) {
      reporter.finished({ name: node.name, kind: "suite", depth, outcome: "skip", ms: 0 });
      return;
    }
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
    const base = { name: node.name, kind: "suite" as const, depth, ms: elapsed, location: node.location };
    if (hookError !== undefined) {
      counts.fail++;
      const entry: Finished = { ...base, outcome: "fail", error: hookError };
      reporter.finished(entry);
      failures.push(entry);
    } else if (counts.fail > failedBefore) reporter.finished({ ...base, outcome: "fail", failedSubtests: counts.fail - failedBefore });
    else reporter.finished({ ...base, outcome: "pass" });
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
    /**
     * A test file that failed to load (it threw, or did not compile): as Node, whose runner runs
     * each file in a process of its own, the file counts as one failing test named by its path,
     * and the tests it declared before failing never run (its process ended before they could).
     */
    fileFailed(file: string, ms: number): void {
      root = newNode("<root>", "suite", {});
      current = root;
      counts.tests++;
      counts.fail++;
      const entry: Finished = { name: file, kind: "test", depth: 0, outcome: "fail", error: "test failed", ms, location: `${file}:1:1` };
      reporter.started(file, "test", 0, false);
      reporter.finished(entry);
      failures.push(entry);
    },
    /** Prints the summary; returns whether every test passed. */
    report(): boolean {
      reporter.summary(counts, performance.now() - started, failures);
      return counts.fail === 0;
    },
  };
}

export type TestModule = ReturnType<typeof createTestModule>;
