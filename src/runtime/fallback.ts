// The user-facing words for "why is there no Node.js": the detail behind the status bar's runtime
// item and the reason quoted when a command that needs WebContainer (node, npm, ...) is typed.
import type { FallbackReason } from "./types";

export interface FallbackNotice {
  title: string;
  detail: string;
  /** What the browser runtime cannot do, for a short list in the notice. */
  unavailable: string[];
}

/** What only WebContainer adds to the browser runtime, for a short list in the notice. */
export const UNAVAILABLE_IN_BROWSER_RUNTIME = [
  "npm packages with install scripts or native code",
  "Node.js dev servers and most bundlers (next, webpack, esbuild)",
  "raw sockets and native addons in node programs",
];

/**
 * What works while the browser runtime runs the commands: said exactly, since node, npm, python3,
 * git and the Preview all run without WebContainer (a panel that said "node and npm do not work"
 * was wrong while they did).
 */
export const BROWSER_RUNTIME_WORKS =
  "Browser runtime: node, npm, python3, git, the terminal's file and text commands, the agent, the Preview of front-end apps (static files, TypeScript, JSX, CSS modules, PostCSS, node_modules packages), node's http servers, which the Preview and curl reach, and vite build (with Rolldown's WebAssembly build).";

/** Why a WebContainer boot that never answers most often stalls, besides the network. */
const STALL_CAUSES =
  "It loads from StackBlitz's servers, so it needs the network; a browser that blocks third-party cookies or storage (Incognito windows, Brave's shields, some privacy extensions) also keeps it from starting.";

/** One clause saying why WebContainer is not running, e.g. "the page is not cross-origin isolated". */
export function fallbackCause(reason: FallbackReason): string {
  switch (reason.kind) {
    case "not-isolated":
      return "the page is not cross-origin isolated (it needs the COOP/COEP headers)";
    case "unsupported-browser":
      return "this browser does not support WebContainer (use a recent Chromium-based browser)";
    case "boot-timeout":
      return `WebContainer did not start within ${Math.round(reason.timeoutMs / 1000)} s (it needs the network and third-party cookies for StackBlitz)`;
    case "boot-failed":
      return `WebContainer failed to start: ${reason.message}`;
    case "lost":
      return `WebContainer stopped answering (${reason.message}) and was shut down`;
    case "forced":
      return "the page was opened with ?runtime=browser";
    case "disabled":
      return "WebContainer is turned off in Settings → Runtime";
  }
}

export function describeFallback(reason: FallbackReason): FallbackNotice {
  const unavailable = [...UNAVAILABLE_IN_BROWSER_RUNTIME];
  const tail = ` ${BROWSER_RUNTIME_WORKS} WebContainer adds ${unavailable.join(", ")}.`;
  switch (reason.kind) {
    case "not-isolated":
      return {
        title: "Running in the browser runtime",
        detail:
          "WebContainer needs a cross-origin isolated page (Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp or credentialless), and this page is not isolated. Serve webcode with those headers (npm start does) to use it." +
          tail,
        unavailable,
      };
    case "unsupported-browser":
      return {
        title: "Running in the browser runtime",
        detail: "This browser cannot run WebContainer. Open webcode in a recent Chromium-based browser (Chrome, Edge) to use it." + tail,
        unavailable,
      };
    case "boot-timeout":
      return {
        title: "WebContainer did not start in time",
        detail: `WebContainer did not start within ${Math.round(reason.timeoutMs / 1000)} s. ${STALL_CAUSES} Press Retry to wait for it again.` + tail,
        unavailable,
      };
    case "boot-failed":
      return {
        title: "WebContainer failed to start",
        detail: `WebContainer reported: ${reason.message}. Press Retry to try again.` + tail,
        unavailable,
      };
    case "lost":
      return {
        title: "WebContainer stopped answering",
        detail: `WebContainer stopped answering (${reason.message}), so webcode shut it down and the workspace runs in the browser runtime again. Press Retry to start a new one.` + tail,
        unavailable,
      };
    case "forced":
      return {
        title: "Running in the browser runtime (requested)",
        detail: "The page was opened with ?runtime=browser. Remove it from the address to use WebContainer." + tail,
        unavailable,
      };
    case "disabled":
      return {
        title: "Running in the browser runtime",
        detail: "Using WebContainer is turned off in Settings → Runtime, so it is never loaded." + tail,
        unavailable,
      };
  }
}
