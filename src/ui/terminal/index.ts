// The terminal panel: xterm over the runtime's interactive shell.
export { TerminalPanel, type TerminalPanelProps } from "./terminal-panel";
export { TerminalSession, type TerminalView } from "./terminal-session";
