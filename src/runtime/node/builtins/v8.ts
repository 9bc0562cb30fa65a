// node:v8: heap figures (the page's performance.memory where the browser gives it, else estimates
// with Node's field names), serialize/deserialize and the rest loading. serialize() writes our own
// format, not V8's wire format: a version byte and a tagged JSON of the value (structured-clone
// types: primitives incl. undefined, NaN, -0 and BigInt, plain objects, arrays, Map, Set, Date,
// RegExp, Error, ArrayBuffer, typed arrays and Buffer, with shared and circular references). It
// round-trips in the browser runtime; Node cannot read it, nor can we read Node's.
import { Buffer } from "buffer/";
import { NeedsWebContainerError, unsupportedFunction } from "./unsupported";

const FORMAT = 0xf1;
type Encoded = null | boolean | string | number | Encoded[] | { [key: string]: Encoded };
type Typed = ArrayBufferView & { constructor: { name: string } };
const TYPED: Record<string, new (buffer: ArrayBuffer, offset?: number, length?: number) => ArrayBufferView> = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array, DataView,
};

function cloneError(name: string): Error {
  return new Error(`${name} could not be cloned.`);
}

function encode(value: unknown): Encoded {
  const seen = new Map<object, number>();
  const walk = (item: unknown): Encoded => {
    switch (typeof item) {
      case "undefined": return ["u"];
      case "boolean": case "string": return item;
      case "number": return Number.isFinite(item) && !Object.is(item, -0) ? item : ["n", String(Object.is(item, -0) ? "-0" : item)];
      case "bigint": return ["b", item.toString()];
      case "symbol": throw cloneError(String(item));
      case "function": throw cloneError(String(item));
    }
    if (item === null) return null;
    const object = item as object;
    const ref = seen.get(object);
    if (ref !== undefined) return ["r", ref];
    const id = seen.size;
    seen.set(object, id);
    if (Array.isArray(object)) return ["a", id, object.map(walk)];
    if (object instanceof Map) return ["m", id, [...object].map(([k, v]) => [walk(k), walk(v)])];
    if (object instanceof Set) return ["s", id, [...object].map(walk)];
    if (object instanceof Date) return ["d", id, object.getTime()];
    if (object instanceof RegExp) return ["x", id, object.source, object.flags];
    if (object instanceof Error) return ["e", id, object.name, object.message, object.stack ?? ""];
    if (object instanceof ArrayBuffer) return ["B", id, Buffer.from(object).toString("base64")];
    if (ArrayBuffer.isView(object)) {
      const view = object as Typed;
      const bytes = Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString("base64");
      return ["t", id, Buffer.isBuffer(view) ? "Buffer" : view.constructor.name, bytes];
    }
    const proto = Object.getPrototypeOf(object) as unknown;
    if (proto !== Object.prototype && proto !== null && !(typeof proto === "object")) throw cloneError(String(object));
    const entries: Record<string, Encoded> = {};
    for (const key of Object.keys(object)) entries[key] = walk((object as Record<string, unknown>)[key]);
    return ["o", id, entries];
  };
  return walk(value);
}

function decode(encoded: Encoded): unknown {
  const refs: unknown[] = [];
  const walk = (item: Encoded): unknown => {
    if (!Array.isArray(item)) return item;
    const [tag, id] = item as [string, number, ...Encoded[]];
    switch (tag) {
      case "u": return undefined;
      case "n": return item[1] === "-0" ? -0 : Number(item[1]);
      case "b": return BigInt(item[1] as string);
      case "r": return refs[id];
      case "a": { const out: unknown[] = []; refs[id] = out; for (const entry of item[2] as Encoded[]) out.push(walk(entry)); return out; }
      case "m": { const out = new Map(); refs[id] = out; for (const [k, v] of item[2] as [Encoded, Encoded][]) out.set(walk(k), walk(v)); return out; }
      case "s": { const out = new Set(); refs[id] = out; for (const entry of item[2] as Encoded[]) out.add(walk(entry)); return out; }
      case "d": return (refs[id] = new Date(item[2] as number));
      case "x": return (refs[id] = new RegExp(item[2] as string, item[3] as string));
      case "e": {
        const Kind = ({ TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError } as Record<string, ErrorConstructor>)[item[2] as string] ?? Error;
        const error = new Kind(item[3] as string);
        error.stack = item[4] as string;
        return (refs[id] = error);
      }
      case "B": { const bytes = Buffer.from(item[2] as string, "base64"); return (refs[id] = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)); }
      case "t": {
        const bytes = Buffer.from(item[3] as string, "base64");
        if (item[2] === "Buffer") return (refs[id] = bytes);
        const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
        const View = TYPED[item[2] as string] ?? Uint8Array;
        return (refs[id] = new View(buffer));
      }
      case "o": { const out: Record<string, unknown> = {}; refs[id] = out; for (const [k, v] of Object.entries(item[2] as Record<string, Encoded>)) out[k] = walk(v); return out; }
    }
    throw new Error(`Unable to deserialize cloned data: unknown tag ${String(tag)}.`);
  };
  return walk(encoded);
}

export function serialize(value: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(encode(value)));
  return Buffer.concat([Buffer.from([FORMAT]), json]);
}

export function deserialize(buffer: ArrayBufferView): unknown {
  const bytes = Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  if (bytes[0] !== FORMAT) throw new Error("Unable to deserialize cloned data: not written by v8.serialize() of the browser runtime (Node's V8 format is not read here).");
  return decode(JSON.parse(bytes.subarray(1).toString()) as Encoded);
}

function heapStatistics() {
  const memory = (performance as { memory?: { usedJSHeapSize: number; totalJSHeapSize: number; jsHeapSizeLimit: number } }).memory;
  const used = memory?.usedJSHeapSize ?? 8 * 1024 * 1024;
  const total = memory?.totalJSHeapSize ?? used;
  const limit = memory?.jsHeapSizeLimit ?? 4 * 1024 * 1024 * 1024;
  return {
    total_heap_size: total, total_heap_size_executable: 0, total_physical_size: total, total_available_size: limit - used, used_heap_size: used, heap_size_limit: limit,
    malloced_memory: 0, peak_malloced_memory: 0, does_zap_garbage: 0, number_of_native_contexts: 1, number_of_detached_contexts: 0, total_global_handles_size: 0, used_global_handles_size: 0, external_memory: 0,
  };
}

export function createV8(): Record<string, unknown> {
  const spaces = ["read_only_space", "new_space", "old_space", "code_space", "shared_space", "trusted_space", "new_large_object_space", "large_object_space", "code_large_object_space", "shared_large_object_space", "trusted_large_object_space"];
  return {
    cachedDataVersionTag: () => 0x77656263,
    getHeapStatistics: heapStatistics,
    getHeapSpaceStatistics: () => {
      const { used_heap_size: used, total_heap_size: total } = heapStatistics();
      return spaces.map((space_name) => (space_name === "old_space" ? { space_name, space_size: total, space_used_size: used, space_available_size: total - used, physical_space_size: total } : { space_name, space_size: 0, space_used_size: 0, space_available_size: 0, physical_space_size: 0 }));
    },
    getHeapCodeStatistics: () => ({ code_and_metadata_size: 0, bytecode_and_metadata_size: 0, external_script_source_size: 0, cpu_profiler_metadata_size: 0 }),
    setFlagsFromString: () => undefined,
    serialize,
    deserialize,
    Serializer: unsupportedClassOf("Serializer"),
    Deserializer: unsupportedClassOf("Deserializer"),
    DefaultSerializer: unsupportedClassOf("DefaultSerializer"),
    DefaultDeserializer: unsupportedClassOf("DefaultDeserializer"),
    getHeapSnapshot: unsupportedFunction("v8", "getHeapSnapshot"),
    writeHeapSnapshot: unsupportedFunction("v8", "writeHeapSnapshot"),
    queryObjects: unsupportedFunction("v8", "queryObjects"),
    takeCoverage: () => undefined,
    stopCoverage: () => undefined,
    setHeapSnapshotNearHeapLimit: () => undefined,
    promiseHooks: { onInit: () => () => undefined, onSettled: () => () => undefined, onBefore: () => () => undefined, onAfter: () => () => undefined, createHook: () => () => undefined },
    startupSnapshot: { isBuildingSnapshot: () => false, addSerializeCallback: unsupportedFunction("v8", "startupSnapshot.addSerializeCallback"), addDeserializeCallback: unsupportedFunction("v8", "startupSnapshot.addDeserializeCallback"), setDeserializeMainFunction: unsupportedFunction("v8", "startupSnapshot.setDeserializeMainFunction") },
    GCProfiler: class GCProfiler {
      start(): void {}
      stop() {
        return { version: 1, startTime: Date.now(), endTime: Date.now(), statistics: [] };
      }
    },
  };
}

function unsupportedClassOf(name: string) {
  return {
    [name]: class {
      constructor() {
        throw new NeedsWebContainerError(`node:v8 ${name} (V8's wire format)`);
      }
    },
  }[name]!;
}
