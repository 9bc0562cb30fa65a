// The dark theme's text tokens against its background tokens: WCAG 2 contrast ratios computed from
// the colours in app.css (and the terminal's theme), so a token change that makes text unreadable fails.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TERMINAL_MIN_CONTRAST, TERMINAL_THEME } from "../../src/ui/terminal/xterm-setup";

const CSS = readFileSync(new URL("../../src/ui/app/app.css", import.meta.url), "utf8");

/** The `--name: #rrggbb;` tokens of the stylesheet's :root block. */
function tokens(css: string): Map<string, string> {
  const root = /:root\s*{([^}]*)}/.exec(css)?.[1] ?? "";
  return new Map([...root.matchAll(/--([\w-]+):\s*(#[0-9a-fA-F]{6})\s*;/g)].map((m) => [m[1]!, m[2]!.toLowerCase()]));
}

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG 2 contrast ratio of two opaque colours. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

const theme = tokens(CSS);
const color = (name: string): string => {
  const value = theme.get(name);
  if (!value) throw new Error(`app.css has no --${name} colour token`);
  return value;
};

/** Backgrounds text is drawn on (panels, bars, inputs, hovered and selected rows, notices). */
const BACKGROUNDS = ["bg", "bg-sidebar", "bg-bar", "bg-titlebar", "bg-hover", "bg-selected", "bg-selected-inactive", "bg-input", "bg-raised", "status-bg"];
/** Text tokens: body, muted (placeholders, session times, quick-open hints, message actions), links and states. */
const TEXT = ["fg", "fg-strong", "fg-muted", "info", "warning"];

describe("dark theme contrast", () => {
  it("computes WCAG ratios correctly (black on white is 21:1, a colour on itself 1:1)", () => {
    expect(contrast("#000000", "#ffffff")).toBeCloseTo(21, 5);
    expect(contrast("#777777", "#777777")).toBe(1);
    expect(contrast("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
  });

  it.each(TEXT)("text token --%s meets 4.5:1 on every background token", (text) => {
    const failing = BACKGROUNDS.map((bg) => ({ bg, ratio: contrast(color(text), color(bg)) })).filter((r) => r.ratio < 4.5);
    expect(failing).toEqual([]);
  });

  it("error text meets 4.5:1 on its own notice background and on the panels", () => {
    for (const bg of ["bg", "bg-sidebar", "error-bg"]) expect(contrast(color("error"), color(bg)), bg).toBeGreaterThanOrEqual(4.5);
    for (const bg of ["bg", "warning-bg"]) expect(contrast(color("warning"), color(bg)), bg).toBeGreaterThanOrEqual(4.5);
    for (const bg of ["bg", "info-bg"]) expect(contrast(color("info"), color(bg)), bg).toBeGreaterThanOrEqual(4.5);
  });

  it("the focus ring has 3:1 against every background, and buttons draw it outside (beside the background, not their fill)", () => {
    for (const bg of BACKGROUNDS) expect(contrast(color("focus"), color(bg)), bg).toBeGreaterThanOrEqual(3);
    // Inside a primary button the ring would sit on the accent fill, where it is not visible enough.
    expect(contrast(color("focus"), color("accent"))).toBeLessThan(3);
    expect(CSS).toMatch(/\.button:focus-visible\s*{\s*outline-offset:\s*2px;/);
    expect(CSS).toMatch(/:focus-visible\s*{\s*outline:\s*2px solid var\(--focus\);/);
  });

  it("the terminal's text is readable: its foreground, and xterm lifts dim and dark ANSI colours (the banner) to 4.5:1", () => {
    expect(contrast(TERMINAL_THEME.foreground, TERMINAL_THEME.background)).toBeGreaterThanOrEqual(4.5);
    // The banner is dim text (SGR 2): half the foreground over the background, below 4.5:1 on its own.
    const dim = blend(TERMINAL_THEME.foreground, TERMINAL_THEME.background, 0.5);
    expect(contrast(dim, TERMINAL_THEME.background)).toBeLessThan(4.5);
    expect(TERMINAL_MIN_CONTRAST).toBeGreaterThanOrEqual(4.5);
  });
});

function blend(fg: string, bg: string, alpha: number): string {
  const part = (hex: string, i: number) => parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
  return `#${[0, 1, 2].map((i) => Math.round(part(fg, i) * alpha + part(bg, i) * (1 - alpha)).toString(16).padStart(2, "0")).join("")}`;
}
