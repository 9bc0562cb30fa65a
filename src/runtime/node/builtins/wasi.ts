// node:wasi in the browser runtime: @tybys/wasm-util's WASI, the WASI preview1 that napi-rs's own
// browser builds run on (Node's class, options and checks), over the program's own fs module, so
// preopened folders are the program's files and a WASI program's writes reach the workspace like
// any other; its standard output and error are the program's. That is what the napi-rs wasm builds
// of native packages (Rolldown's @rolldown/binding-wasm32-wasi) load with (native-substitutes.ts).
// Not there: returnOnExit's exit code from proc_exit is wasm-util's (it throws), and stdin reads.
import { WASI as WasmUtilWasi } from "@tybys/wasm-util";

interface WasiOptions {
  version?: string;
  args?: string[];
  env?: Record<string, string | undefined>;
  preopens?: Record<string, string>;
  returnOnExit?: boolean;
  fs?: unknown;
  [key: string]: unknown;
}

/** Node 20's checks of `version` (required, "preview1" or "unstable"), in Node's words. */
function checked(options: WasiOptions): WasiOptions {
  if (typeof options.version !== "string") {
    throw Object.assign(new TypeError(`The "options.version" property must be of type string. Received ${options.version === undefined ? "undefined" : typeof options.version}`), { code: "ERR_INVALID_ARG_TYPE" });
  }
  if (options.version !== "preview1" && options.version !== "unstable") {
    throw Object.assign(new TypeError(`The property 'options.version' unsupported WASI version. Received '${options.version}'`), { code: "ERR_INVALID_ARG_VALUE" });
  }
  return options;
}

export function createWasi(context: { fs: () => unknown; write(stream: "stdout" | "stderr", text: string): void }): Record<string, unknown> {
  class WASI extends WasmUtilWasi {
    constructor(options: WasiOptions = {}) {
      super({
        ...checked(options),
        fs: options.fs ?? context.fs(),
        // wasm-util hands output over a line at a time, without its newline.
        print: (line: string) => context.write("stdout", `${line}\n`),
        printErr: (line: string) => context.write("stderr", `${line}\n`),
      } as ConstructorParameters<typeof WasmUtilWasi>[0]);
    }
  }
  return { WASI };
}
