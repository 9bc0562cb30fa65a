// @webcontainer/api (1.6.4) decodes each output chunk of a process on its own, with one shared
// TextDecoder and no `stream: true`: a UTF-8 character cut between two chunks (npm's tree lines,
// a test runner's ✓, any non-ASCII text) comes out as two U+FFFD. The bytes are gone before the
// adapter sees a string, so the fix is in the module itself: this build step gives each listener
// its own streaming decoder, which keeps a cut character until its last bytes arrive and flushes
// at the end of the stream. It fails the build if the code it patches has changed (an API update
// must be looked at again, not silently lose the fix).
import type { Plugin } from "vite";

const ORIGINAL = `    return (data) => {
        if (data instanceof Uint8Array) {
            listener(decoder.decode(data));
        }
        else if (data == null) {
            listener(null);
        }
    };`;

const PATCHED = `    const streamDecoder = new TextDecoder();
    return (data) => {
        if (data instanceof Uint8Array) {
            const text = streamDecoder.decode(data, { stream: true });
            if (text !== "") listener(text);
        }
        else if (data == null) {
            const rest = streamDecoder.decode();
            if (rest !== "") listener(rest);
            listener(null);
        }
    };`;

/** The API module's code with streaming output decoding; throws when the expected code is not there. */
export function patchWebContainerOutputDecoding(code: string): string {
  const at = code.indexOf(ORIGINAL);
  if (at < 0 || code.indexOf(ORIGINAL, at + 1) >= 0) {
    throw new Error("@webcontainer/api changed: its output decoding (binaryListener) is not the code scripts/webcontainer-output-decoding.ts patches. Check it again.");
  }
  return code.slice(0, at) + PATCHED + code.slice(at + ORIGINAL.length);
}

/** Applies the patch to @webcontainer/api's entry module (dev server and build). */
export function webcontainerOutputDecoding(): Plugin {
  return {
    name: "webcode:webcontainer-output-decoding",
    enforce: "pre",
    transform(code, id) {
      if (!/node_modules[\\/]@webcontainer[\\/]api[\\/]dist[\\/]index\.js$/.test(id.split("?")[0]!)) return undefined;
      return { code: patchWebContainerOutputDecoding(code), map: null };
    },
  };
}
