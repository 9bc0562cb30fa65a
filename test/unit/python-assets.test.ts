// Python's start files are fetched once per page: a request that fails without an answer (a
// dropped connection) is tried again before python3 reports it; an HTTP error is reported at once.
import { describe, expect, it } from "vitest";
import { fetchAsset } from "../../src/runtime/python/assets";

describe("fetchAsset", () => {
  it("tries a dropped request again and returns the bytes", async () => {
    const calls: string[] = [];
    const flaky = async (url: string) => {
      calls.push(url);
      if (calls.length < 3) throw new TypeError("Failed to fetch");
      return new Response(new Uint8Array([1, 2, 3]));
    };
    expect(await fetchAsset("/python_stdlib.zip", flaky, [1, 1])).toEqual(new Uint8Array([1, 2, 3]));
    expect(calls).toEqual(["/python_stdlib.zip", "/python_stdlib.zip", "/python_stdlib.zip"]);
  });

  it("gives up after the retries with the network error, and does not retry an HTTP error", async () => {
    let calls = 0;
    const down = async () => {
      calls++;
      throw new TypeError("Failed to fetch");
    };
    await expect(fetchAsset("/pyodide.asm.wasm", down, [1, 1])).rejects.toThrow("Failed to fetch");
    expect(calls).toBe(3);
    calls = 0;
    const missing = async () => {
      calls++;
      return new Response("no", { status: 404 });
    };
    await expect(fetchAsset("/pyodide.asm.wasm", missing, [1, 1])).rejects.toThrow("/pyodide.asm.wasm answered 404");
    expect(calls).toBe(1);
  });
});
