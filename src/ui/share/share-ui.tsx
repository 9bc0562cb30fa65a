// The share contributions for the shell: a "Share" top-bar button (and, in a shared workspace, the
// read-only banner with "Continue"), a "Shared" panel that shows a shared session's transcript or
// opens a share, and the start-up handling of `#share=` links.
import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { revealInvisibleChars } from "../../base";
import { useAttempt } from "../common";
import type { SessionRecord } from "../../storage";
import { decodeShareInWorker, findShareFragment, withoutTransferFragment, type RestoredShare } from "../../transfer";
import type { PanelContribution, TopBarContribution, WorkbenchServices } from "../app";
import { IsolatedMessage, ShownName, browserAddressBar, settleUnsavedChanges, type AddressBar } from "../transfer";
import { ShareDialog } from "./share-dialog";
import { continueShared, openRestored, openShareFileBytes, openShareLink, sharedSessionOf, type ShareContext, type ShareFileLike } from "./share-opener";
import { SharedTranscript } from "./shared-transcript";
import "./share.css";

export interface ShareUiOptions {
  address?: AddressBar;
  /** The session open in the chat, when the chat exposes it (else the Share dialog picks the most recent). */
  activeSessionId?(services: WorkbenchServices): string | undefined;
  copyText?(text: string): Promise<void>;
  save?(bytes: Uint8Array, fileName: string): void;
}

export interface ShareUi {
  topBar: TopBarContribution[];
  panels: PanelContribution[];
  /** Opens a .webcode file (for the transfer drop zone: `createTransferUi({ openShareFile })`). */
  openShareFile(services: WorkbenchServices, file: ShareFileLike): Promise<void>;
  openShareLink(services: WorkbenchServices, link: string): Promise<void>;
}

export const SHARE_TOP_BAR_ID = "share";
export const SHARED_PANEL_ID = "shared";

export function shareContext(services: WorkbenchServices): ShareContext {
  return { storage: services.storage, workspaces: services.workspaces, notifications: services.notifications, beforeLeave: () => settleUnsavedChanges(services) };
}

export function createShareUi(options: ShareUiOptions = {}): ShareUi {
  const address = options.address ?? browserAddressBar;
  let startupDone = false;
  const openFile = async (services: WorkbenchServices, file: ShareFileLike) => {
    await openShareFileBytes(shareContext(services), file);
  };
  const openLink = async (services: WorkbenchServices, link: string) => {
    await openShareLink(shareContext(services), link);
  };
  /**
   * On load (once per page) and on hashchange: a `#share=` link is removed from the address bar,
   * decoded (or refused), and opened only when the user says so — a link anyone can send must not
   * switch workspaces by itself.
   */
  const handleAddress = (services: WorkbenchServices) => {
    const href = address.href();
    if (findShareFragment(href) === undefined) return;
    address.replace(withoutTransferFragment(href));
    askAndOpen(services, href).catch((error: unknown) => services.notifications.error(error, "The share link could not be opened"));
  };
  const startup = (services: WorkbenchServices) => {
    if (startupDone) return;
    startupDone = true;
    handleAddress(services);
  };
  /** A link pasted into the open tab changes only the fragment (no reload): asked like a fresh load. */
  const watch = (services: WorkbenchServices) => address.subscribe?.(() => handleAddress(services));
  return {
    openShareFile: openFile,
    openShareLink: openLink,
    topBar: [
      {
        id: SHARE_TOP_BAR_ID,
        order: 20,
        render: (services) => <ShareTopBar services={services} options={options} address={address} startup={startup} watch={watch} />,
      },
    ],
    panels: [
      {
        id: SHARED_PANEL_ID,
        title: "Shared",
        order: 110,
        render: (services) => <SharedPanel services={services} openFile={openFile} openLink={openLink} />,
      },
    ],
  };
}

/** The question asked before a link from the address bar opens. */
export function openSharedQuestion(restored: RestoredShare): { title: string; message: string } {
  const title = revealInvisibleChars(restored.envelope.session.title.trim() || "Shared session").slice(0, 200);
  const messages = restored.envelope.messages.length;
  const files = restored.entries.filter((e) => e.kind === "file").length;
  return {
    title: "Open shared session?",
    message:
      `The address holds a shared session, "${title}" (${messages} message${messages === 1 ? "" : "s"}, ${files} file${files === 1 ? "" : "s"}). ` +
      "It opens read-only in a new workspace and nothing in it runs until you press Continue. Open it only if you trust whoever sent you the link.",
  };
}

async function askAndOpen(services: WorkbenchServices, link: string): Promise<void> {
  // Decoded off the main thread: a big share must not freeze the page.
  const restored = await decodeShareInWorker({ type: "share-link", link });
  const answer = await services.dialogs.ask({
    kind: "choice",
    ...openSharedQuestion(restored),
    buttons: [
      { id: "cancel", label: "Cancel" },
      { id: "open", label: "Open", primary: true },
    ],
    cancelId: "cancel",
  });
  if (answer !== "open") return;
  await openRestored(shareContext(services), restored, "link");
}

interface ShareTopBarProps {
  services: WorkbenchServices;
  options: ShareUiOptions;
  address: AddressBar;
  startup(services: WorkbenchServices): void;
  watch(services: WorkbenchServices): (() => void) | undefined;
}

function ShareTopBar({ services, options, address, startup, watch }: ShareTopBarProps) {
  const [open, setOpen] = useState(false);
  useEffect(() => startup(services), [startup, services]);
  useEffect(() => watch(services), [watch, services]);
  const { files } = services;
  const flush = useCallback(() => files.flush(), [files]);
  const linkBase = address.href().split("#")[0]!;
  return (
    <div className="share-top-bar">
      {services.workspace.readOnly && <ReadOnlyBanner services={services} />}
      <button type="button" className="button top-bar-button" onClick={() => setOpen(true)}>
        Share
      </button>
      {open && (
        <ShareDialog
          storage={services.storage}
          workspace={services.workspace}
          flush={flush}
          preferredSessionId={options.activeSessionId?.(services)}
          linkBase={linkBase}
          onClose={() => setOpen(false)}
          {...(options.copyText && { copyText: options.copyText })}
          {...(options.save && { save: options.save })}
        />
      )}
    </div>
  );
}

function ReadOnlyBanner({ services }: { services: WorkbenchServices }) {
  const [busy, setBusy] = useState(false);
  const onContinue = async () => {
    setBusy(true);
    try {
      await continueShared(shareContext(services), services.workspace.id);
    } catch (error) {
      services.notifications.error(error, "The shared session could not be continued");
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="share-read-only" role="region" aria-label="Read-only shared session">
      <span>Read-only shared session: nothing runs until you continue it.</span>
      <button type="button" className="button button-primary top-bar-button" disabled={busy} onClick={() => void onContinue()}>
        Continue
      </button>
    </div>
  );
}

function SharedPanel({ services, openFile, openLink }: { services: WorkbenchServices; openFile: ShareUi["openShareFile"]; openLink: ShareUi["openShareLink"] }) {
  const { workspace, storage, showPanel } = services;
  const [session, setSession] = useState<SessionRecord | undefined>(undefined);
  useEffect(() => {
    if (!workspace.readOnly) return;
    let live = true;
    showPanel(SHARED_PANEL_ID);
    void sharedSessionOf(storage, workspace.id).then((found) => live && setSession(found));
    return () => {
      live = false;
    };
  }, [workspace, storage, showPanel]);

  if (workspace.readOnly) {
    return (
      <section className="shared-panel" aria-label="Shared session">
        <h2 className="shared-title">
          <ShownName name={session?.title ?? "Shared session"} />
        </h2>
        <p className="form-hint">
          Opened from {session?.share?.openedFrom === "link" ? "a share link" : <ShownName name={session?.share?.openedFrom ?? "a share"} />}. Read-only: press Continue in the top bar to work on it.
        </p>
        {session ? <SharedTranscript storage={storage} session={session} /> : <p role="status">Loading…</p>}
      </section>
    );
  }
  return <OpenShareForm services={services} openFile={openFile} openLink={openLink} />;
}

function OpenShareForm({ services, openFile, openLink }: { services: WorkbenchServices; openFile: ShareUi["openShareFile"]; openLink: ShareUi["openShareLink"] }) {
  const fileInput = useRef<HTMLInputElement>(null);
  const linkId = useId();
  const [link, setLink] = useState("");
  const { busy, problem, attempt: run } = useAttempt();
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (file) void run(() => openFile(services, file));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (link.trim()) void run(() => openLink(services, link.trim()));
  };
  return (
    <section className="shared-panel" aria-label="Open a share">
      <p>Sessions shared with you open here, read-only, in a workspace of their own. Nothing in them runs until you continue them.</p>
      <button type="button" className="button" disabled={busy} onClick={() => fileInput.current?.click()}>
        Open .webcode file
      </button>
      <input ref={fileInput} type="file" accept=".webcode" aria-label=".webcode file to open" hidden onChange={onFile} />
      <form className="shared-open-link" onSubmit={onSubmit}>
        <label htmlFor={linkId}>Share link to open</label>
        <input id={linkId} className="text-input" value={link} placeholder="https://…#share=v1.…" onChange={(event) => setLink(event.target.value)} />
        <button type="submit" className="button" disabled={busy || link.trim() === ""}>
          Open link
        </button>
      </form>
      {problem && (
        <p className="transfer-error" role="alert">
          <IsolatedMessage text={problem} />
        </p>
      )}
    </section>
  );
}
