// The transfer contributions for the shell's top bar: "Import zip", "Import folder", "Export zip",
// the drop zone over the file tree, and the start-up handling of `#import=<url>`. State that must
// outlive a workspace switch (the running import) lives in the ImportFlow, not in the components.
import { useEffect, useRef, useState, type ChangeEvent } from "react";
import { isAbortError } from "../../base";
import { findGitHubSpec, findImportUrl, parseRepoSpec, withoutTransferFragment, type DirectoryHandleLike, type GitHubRepoSpec } from "../../transfer";
import type { TopBarContribution, WorkbenchServices } from "../app";
import { DropZone, type DroppedImport } from "./drop-zone";
import { ExportDialog } from "./export-dialog";
import { GitHubOpenDialog } from "./github-open-dialog";
import { GitHubPushDialog } from "./github-push-dialog";
import { githubConnection, githubSource } from "./github-source";
import { loadKnownSecrets } from "./secret-findings";
import { ImportDialog } from "./import-dialog";
import { ImportFlow, tellUser, type ImportContext } from "./import-flow";
import {
  directoryHandleSource,
  droppedEntriesSource,
  droppedFilesSource,
  fileListSource,
  linkSource,
  zipFileSource,
  type ImportSource,
  type Unzip,
} from "./import-sources";
import { settleUnsavedChanges } from "./leave-workspace";
import "./transfer.css";

/** The page address, read and rewritten (history.replaceState) once a fragment has been used. */
export interface AddressBar {
  href(): string;
  replace(url: string): void;
  /**
   * Calls `listener` when the fragment changes without a reload (a link pasted into an open tab);
   * returns the unsubscribe. Without it, only the address at load is handled.
   */
  subscribe?(listener: () => void): () => void;
}

export const browserAddressBar: AddressBar = {
  href: () => location.href,
  replace: (url) => history.replaceState(history.state, "", url),
  // replaceState fires no hashchange, so removing a fragment does not call the listener again.
  subscribe: (listener) => {
    window.addEventListener("hashchange", listener);
    return () => window.removeEventListener("hashchange", listener);
  },
};

export interface TransferUiOptions {
  /** Opens a dropped .webcode file (pass `createShareUi().openShareFile`); without it such drops are refused. */
  openShareFile?(services: WorkbenchServices, file: File): Promise<void>;
  address?: AddressBar;
  /** The fetch used by `#import=` and GitHub (API and raw host); the page's own unless injected. */
  fetch?: typeof fetch;
  unzip?: Unzip;
}

export interface TransferUi {
  topBar: TopBarContribution[];
  /** The import dialog's state machine (one per page). */
  flow: ImportFlow;
}

export const IMPORT_TOP_BAR_ID = "transfer";

export function importContext(services: WorkbenchServices): ImportContext {
  return {
    storage: services.storage,
    workspace: services.workspace,
    files: services.files,
    workspaces: services.workspaces,
    notifications: services.notifications,
    beforeLeave: () => settleUnsavedChanges(services),
  };
}

/** Opens a repository through the import flow, which asks first (naming the repository and API host). */
export async function openGitHubRepository(flow: ImportFlow, services: WorkbenchServices, spec: GitHubRepoSpec, fetchImpl?: typeof fetch): Promise<void> {
  const connection = await githubConnection(services.storage, fetchImpl);
  flow.open(
    githubSource(spec, () => githubConnection(services.storage, fetchImpl), connection.apiUrl),
    importContext(services),
  );
}

export function createTransferUi(options: TransferUiOptions = {}): TransferUi {
  const flow = new ImportFlow();
  const address = options.address ?? browserAddressBar;
  let startupDone = false;
  /**
   * `#import=<url>` or `#github=owner/repo` in the address: removed from it, then the import dialog
   * asks before anything is downloaded.
   */
  const handleAddress = (services: WorkbenchServices) => {
    const href = address.href();
    const spec = findGitHubSpec(href);
    if (spec !== undefined) {
      address.replace(withoutTransferFragment(href));
      let parsed: GitHubRepoSpec;
      try {
        parsed = parseRepoSpec(spec);
      } catch (error) {
        services.notifications.error(error, "The #github= link could not be opened");
        return;
      }
      openGitHubRepository(flow, services, parsed, options.fetch).catch((error: unknown) => services.notifications.error(error, "The repository could not be opened"));
      return;
    }
    const url = findImportUrl(href);
    if (url === undefined) return;
    address.replace(withoutTransferFragment(href));
    flow.open(linkSource(url, { ...(options.fetch && { fetch: options.fetch }), ...(options.unzip && { unzip: options.unzip }) }), importContext(services));
  };
  /** Once per page, when the first workspace is open (the top bar remounts on every switch). */
  const startup = (services: WorkbenchServices) => {
    if (startupDone) return;
    startupDone = true;
    handleAddress(services);
  };
  /** A link pasted into the open tab changes only the fragment: handled like a fresh load. */
  const watch = (services: WorkbenchServices) => address.subscribe?.(() => handleAddress(services));
  return {
    flow,
    topBar: [
      {
        id: IMPORT_TOP_BAR_ID,
        order: 10,
        render: (services) => <TransferTopBar services={services} flow={flow} options={options} startup={startup} watch={watch} />,
      },
    ],
  };
}

interface WindowWithPicker {
  showDirectoryPicker?(options?: { mode?: "read" }): Promise<DirectoryHandleLike>;
}

interface TransferTopBarProps {
  services: WorkbenchServices;
  flow: ImportFlow;
  options: TransferUiOptions;
  startup(services: WorkbenchServices): void;
  watch(services: WorkbenchServices): (() => void) | undefined;
}

function TransferTopBar({ services, flow, options, startup, watch }: TransferTopBarProps) {
  const zipInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [exporting, setExporting] = useState(false);
  const [askingRepo, setAskingRepo] = useState(false);
  const [pushing, setPushing] = useState(false);
  const upstream = services.workspace.upstream;

  useEffect(() => startup(services), [startup, services]);
  useEffect(() => watch(services), [watch, services]);

  const open = (source: ImportSource) => flow.open(source, importContext(services));
  const unzip = options.unzip;

  const onZipPicked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) open(zipFileSource(file, unzip));
  };
  const onFolderPicked = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = "";
    if (files.length > 0) open(fileListSource(files));
  };
  const pickFolder = async () => {
    const picker = (window as unknown as WindowWithPicker).showDirectoryPicker;
    if (!picker) {
      folderInput.current?.click();
      return;
    }
    try {
      open(directoryHandleSource(await picker.call(window, { mode: "read" })));
    } catch (error) {
      // Closing the picker is not an error worth showing.
      if (!isAbortError(error)) services.notifications.error(error, "The folder could not be opened");
    }
  };
  const onDrop = (drop: DroppedImport) => {
    switch (drop.kind) {
      case "zip":
        open(zipFileSource(drop.file, unzip));
        return;
      case "share-file":
        if (options.openShareFile) void options.openShareFile(services, drop.file).catch((error: unknown) => services.notifications.error(error, "The share could not be opened"));
        else services.notifications.notify("error", "webcode cannot open .webcode files here. Use the Share panel's Open .webcode file instead.");
        return;
      case "entries":
        open(droppedEntriesSource(drop.entries));
        return;
      case "files":
        open(droppedFilesSource(drop.files));
        return;
    }
  };

  return (
    <div className="transfer-top-bar">
      <button type="button" className="button top-bar-button" onClick={() => zipInput.current?.click()}>
        Import zip
      </button>
      <input ref={zipInput} type="file" accept=".zip,application/zip,application/x-zip-compressed" aria-label="Zip file to import" hidden onChange={onZipPicked} />
      <button type="button" className="button top-bar-button" onClick={() => setAskingRepo(true)}>
        Open from GitHub
      </button>
      {askingRepo && (
        <GitHubOpenDialog
          onClose={() => setAskingRepo(false)}
          onOpen={(spec) => {
            setAskingRepo(false);
            openGitHubRepository(flow, services, spec, options.fetch).catch((error: unknown) => services.notifications.error(error, "The repository could not be opened"));
          }}
        />
      )}
      <button type="button" className="button top-bar-button" onClick={() => void pickFolder()}>
        Import folder
      </button>
      <input
        ref={(input) => {
          folderInput.current = input;
          // React does not know the non-standard attribute; set it on the element.
          input?.setAttribute("webkitdirectory", "");
        }}
        type="file"
        multiple
        aria-label="Folder to import"
        hidden
        onChange={onFolderPicked}
      />
      <button type="button" className="button top-bar-button" onClick={() => setExporting(true)}>
        Export zip
      </button>
      {upstream && !services.workspace.readOnly && (
        <button type="button" className="button top-bar-button" title={`Send this workspace's changes to ${upstream.owner}/${upstream.repo} as a pull request`} onClick={() => setPushing(true)}>
          Push to GitHub
        </button>
      )}
      {pushing && upstream && <GitHubPushDialog services={services} upstream={upstream} {...(options.fetch && { fetch: options.fetch })} onClose={() => setPushing(false)} />}
      <ImportDialog flow={flow} />
      {exporting && (
        <ExportDialog
          workspaceName={services.workspace.name}
          files={services.files}
          unsavedCount={() => services.documents.tabs.filter((t) => t.dirty).length}
          saveAll={() => services.documents.saveAll()}
          onClose={() => setExporting(false)}
          onExported={(message) => tellUser(services.notifications, message)}
          knownSecrets={() => loadKnownSecrets(services.storage)}
        />
      )}
      <DropZone onDrop={onDrop} />
    </div>
  );
}

