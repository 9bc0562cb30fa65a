// Sharing in the UI: the Share dialog (secret scan, size against the cap, copy link or .webcode
// file), opening `#share=` links and .webcode files read-only, Continue, and the runtime guard.
export { createShareUi, shareContext, SHARE_TOP_BAR_ID, SHARED_PANEL_ID, type ShareUi, type ShareUiOptions } from "./share-ui";
export { ShareDialog, shareLinkBase, type ShareDialogProps } from "./share-dialog";
export { continueShared, openShareFileBytes, openShareLink, sharedSessionOf, type ShareContext, type ShareFileLike } from "./share-opener";
export { configuredSecrets, describeFinding, filesOnlySession, groupFindings, loadKnownSecrets, loadShareSource, scanSource, shareOptionsFor, workspaceSessions, type FindingGroup } from "./share-source";
export { SharedTranscript, loadTranscript } from "./shared-transcript";
export { READ_ONLY_RUNTIME_MESSAGE, ReadOnlyWorkspaceError, refuseRuntimeWhenReadOnly } from "./read-only-guard";
