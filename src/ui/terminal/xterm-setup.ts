// The heavy half of the terminal, loaded lazily (xterm and its fit addon are a separate chunk).
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import "@xterm/xterm/css/xterm.css";

export { Terminal, FitAddon };

export const TERMINAL_THEME = {
  background: "#1e1e1e",
  foreground: "#cccccc",
  cursor: "#aeafad",
  cursorAccent: "#1e1e1e",
  selectionBackground: "#264f78",
  black: "#000000",
  red: "#cd3131",
  green: "#0dbc79",
  yellow: "#e5e510",
  blue: "#2472c8",
  magenta: "#bc3fbc",
  cyan: "#11a8cd",
  white: "#e5e5e5",
  brightBlack: "#666666",
  brightRed: "#f14c4c",
  brightGreen: "#23d18b",
  brightYellow: "#f5f543",
  brightBlue: "#3b8eea",
  brightMagenta: "#d670d6",
  brightCyan: "#29b8db",
  brightWhite: "#e5e5e5",
};

/** xterm raises any text colour (dim text such as the shell's banner included) to this contrast. */
export const TERMINAL_MIN_CONTRAST = 4.5;

export interface TerminalOptions {
  /** xterm's screen-reader mode: output goes to a live region and rows to an accessible tree. */
  screenReaderMode?: boolean;
}

export function createTerminal(options: TerminalOptions = {}): { terminal: Terminal; fit: FitAddon } {
  const terminal = new Terminal({
    theme: TERMINAL_THEME,
    minimumContrastRatio: TERMINAL_MIN_CONTRAST,
    screenReaderMode: options.screenReaderMode ?? false,
    fontFamily: "'JetBrains Mono', 'Cascadia Code', 'Fira Code', Menlo, Consolas, 'DejaVu Sans Mono', monospace",
    fontSize: 13,
    lineHeight: 1.2,
    cursorBlink: true,
    scrollback: 5000,
    allowProposedApi: false,
    convertEol: false,
  });
  const fit = new FitAddon();
  terminal.loadAddon(fit);
  return { terminal, fit };
}
