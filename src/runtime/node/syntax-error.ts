// Where a syntax error is: the browser's eval says what is wrong but not where, so the source is
// parsed once more with sucrase's parser, whose errors carry the line and column.
import { sucrase } from "./lazy-modules";

export function parse(source: string, filename: string): { line: number; column: number } | undefined {
  try {
    sucrase().transform(source.startsWith("#!") ? `//${source.slice(2)}` : source, {
      transforms: /\.[cm]?tsx?$/.test(filename) ? ["typescript"] : [],
      filePath: filename,
      disableESTransforms: true,
    });
  } catch (error) {
    const match = /\((\d+):(\d+)\)/.exec(error instanceof Error ? error.message : "");
    if (match) return { line: Number(match[1]), column: Number(match[2]) };
  }
  return undefined;
}
