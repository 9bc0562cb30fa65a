// Pyodide's files that python3 needs at start: the WebAssembly module, the standard library and
// the package lock. The page serves them from its own origin (copied into the build by Vite) and
// hands them to the sandboxed worker by name, beside the program's files (RunMessage.boot).
export const ASSET_NAMES = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"] as const;
export const ASSET_TYPES: Record<string, string> = {
  "pyodide.asm.wasm": "application/wasm",
  "python_stdlib.zip": "application/zip",
  "pyodide-lock.json": "application/json",
};

/** Waits before each retry of a start file that could not be fetched (a network error, not an HTTP answer). */
export const ASSET_RETRY_DELAYS_MS = [250, 1000];

/**
 * Fetches one of Python's start files. A request that fails without an answer (a dropped
 * connection, a server or service worker restarting) is tried again twice before the error is
 * shown; an HTTP error answer is not retried.
 */
export async function fetchAsset(url: string, fetchImpl: (url: string) => Promise<Response> = (input) => fetch(input), delays: readonly number[] = ASSET_RETRY_DELAYS_MS): Promise<Uint8Array> {
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await fetchImpl(url);
    } catch (error) {
      const delay = delays[attempt];
      if (!(error instanceof TypeError) || delay === undefined) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      continue;
    }
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}
