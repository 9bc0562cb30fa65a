// The sessions sidebar: list, search, new, rename, delete, child sessions.
export { SessionsSidebar, sessionTree, relativeTime, type SessionsSidebarProps, type SessionTreeItem } from "./sessions-sidebar";
export { SessionTextSearch, type SessionTextSource } from "./session-text-search";
