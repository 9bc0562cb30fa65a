// The terminal panel: xterm over the runtime's interactive shell.
export { TerminalPanel, loadXterm, type TerminalPanelProps } from "./terminal-panel";
export { TerminalSession, type TerminalView } from "./terminal-session";
