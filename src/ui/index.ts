// The UI layer's public surface (for main.tsx): the app shell and its extension points.
export * from "./app";
export { Notifications, Dialogs, Icon, IconButton, startupOrder, type IconName } from "./common";
