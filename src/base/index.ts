// Small pure helpers shared by every layer.
export * from "./disposable";
export * from "./events";
export * from "./ids";
export * from "./errors";
export * from "./paths";
export * from "./bytes";
export { globToRegExp, matchGlob, inSkippedFolder } from "./glob-match";
export { yieldToEventLoop, yieldToPage } from "./yield";
export { KeyedSerial, Serial } from "./serial";
export { mergeText, splitLines, type MergeLabels, type MergeResult } from "./text-merge";
export { quoteShellWord, shellLine } from "./shell-quote";
export { crc32 } from "./crc32";
