// Storage in the UI: whether the browser still accepts data (the banner), how much each workspace
// uses (Settings, the "Free up storage" dialog, the recovery screen) and the ways to free space.
export { StorageHealth, isStorageFull, STORAGE_FULL_MESSAGE, type StorageHealthState } from "./storage-health";
export { StorageUsageView, type StorageActions } from "./storage-usage-view";
export { storageActions, type StorageActionsOptions } from "./storage-actions";
export { StorageBanner } from "./storage-banner";
export { StorageDialog } from "./storage-dialog";
export { UnsavedStatus, unsavedPaths } from "./unsaved-status";
export { StorageSection, workbenchStorageActions } from "./storage-section";
export { MemoryStorageBanner, MEMORY_STORAGE_MESSAGE } from "./memory-banner";
