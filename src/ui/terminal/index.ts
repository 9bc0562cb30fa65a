// The terminal panel: xterm over the runtime's interactive shell.
export { TerminalPanel, loadXterm, type TerminalPanelProps } from "./terminal-panel";
export { TerminalSession, XTERM_HIGH_WATER, type TerminalView } from "./terminal-session";
