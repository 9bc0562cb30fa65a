// Shared pieces of the UI panels: notifications, dialogs, icons.
export * from "./notifications";
export * from "./dialogs";
export { DialogHost } from "./dialog-host";
export { FOCUSABLE, trapFocus, modalKeyDown, useRestoreFocus } from "./modal-keys";
export { Toasts } from "./toasts";
export { Icon, IconButton, type IconName } from "./icons";
export { ErrorBoundary, DEFAULT_BOUNDARY_TITLE, type ErrorBoundaryProps } from "./error-boundary";
export { tabFocusMode, toggleTabFocusMode, isTabFocusToggle, focusNextRegion, focusRegion, FOCUS_REGIONS, type TabFocusState } from "./keyboard-focus";
export { announce, LiveAnnouncer, useTakeFocus, userIsTyping, type Politeness } from "./announcer";
export { screenReaderMode, loadScreenReaderMode, setScreenReaderSetting, screenReaderModeOn, SCREEN_READER_KEY, type ScreenReaderSetting, type ScreenReaderModeState } from "./screen-reader-mode";
export { StartupOrder, startupOrder, type StartupHold } from "./startup-order";
export { useAttempt } from "./use-attempt";
