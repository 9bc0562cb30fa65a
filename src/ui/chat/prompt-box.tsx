// The prompt box: Enter sends, Shift+Enter starts a new line, `@` mentions a workspace file (it is
// attached to the message), `/` offers the slash commands, pasted images become attachments.
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ClipboardEvent, type KeyboardEvent } from "react";
import { errorMessage } from "../../base";
import type { FileAttachment } from "../../storage";
import { AttachmentChip } from "./part-views";
import { matchCommands, parseSlash, type SlashCommand } from "./slash-commands";

/** Entries shown in the mention and command popups. */
export const POPUP_LIMIT = 8;
/** Largest pasted image accepted (bytes); bigger ones are refused with a message. */
export const MAX_PASTED_IMAGE_BYTES = 5 * 1024 * 1024;

export interface PromptBoxProps {
  busy: boolean;
  /** Why sending is impossible right now (no provider, read-only session); shown, and Send disabled. */
  disabledReason?: string;
  commands: readonly SlashCommand[];
  onSend(input: { text: string; files: FileAttachment[] }): void;
  onStop(): void;
  onCommand(command: SlashCommand, args: string): void;
  /** Workspace file paths for `@` mentions. */
  listFiles(): Promise<string[]>;
  /** Reads a mentioned file into an attachment. */
  readAttachment(path: string): Promise<FileAttachment>;
  /** Whether the current model accepts images (pasted images are refused otherwise). */
  supportsImages?: boolean;
  /** Reports problems (unreadable file, image too large). */
  onProblem?(message: string): void;
}

type Popup =
  | { kind: "mention"; query: string; start: number; items: string[] }
  | { kind: "command"; items: SlashCommand[] };

/** The `@query` right before the caret, if the caret is in one. */
export function mentionAt(text: string, caret: number): { query: string; start: number } | undefined {
  const match = /(^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));
  if (!match) return undefined;
  return { query: match[2]!, start: caret - match[2]!.length - 1 };
}

/** Paths matching `query`: substring matches first (shorter paths first), then subsequence matches. */
export function filterMentions(paths: readonly string[], query: string, limit = POPUP_LIMIT): string[] {
  const q = query.toLowerCase();
  if (!q) return paths.slice(0, limit);
  const substring: string[] = [];
  const subsequence: string[] = [];
  for (const path of paths) {
    const lower = path.toLowerCase();
    if (lower.includes(q)) substring.push(path);
    else if (isSubsequence(q, lower)) subsequence.push(path);
  }
  substring.sort((a, b) => a.length - b.length || a.localeCompare(b));
  return [...substring, ...subsequence].slice(0, limit);
}

function isSubsequence(needle: string, haystack: string): boolean {
  let i = 0;
  for (let j = 0; j < haystack.length && i < needle.length; j++) if (haystack[j] === needle[i]) i++;
  return i === needle.length;
}

/** Whether the text is exactly "/name" of a known command (nothing left to complete). */
export function isCompleteCommand(text: string, commands: readonly SlashCommand[]): boolean {
  const slash = parseSlash(text);
  return slash !== undefined && commands.some((c) => c.name === slash.name);
}

export function PromptBox(props: PromptBoxProps) {
  const { busy, disabledReason, commands, onSend, onStop, onCommand, listFiles, readAttachment, supportsImages = true, onProblem } = props;
  const [text, setText] = useState("");
  const [files, setFiles] = useState<FileAttachment[]>([]);
  const [popup, setPopup] = useState<Popup | undefined>();
  const [active, setActive] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const filesCache = useRef<Promise<string[]> | undefined>(undefined);
  const pastedCount = useRef(0);
  const listboxId = useId();
  const hintId = useId();

  const report = useCallback((message: string) => onProblem?.(message), [onProblem]);

  const updatePopup = useCallback(
    async (value: string, caret: number) => {
      if (/^\/[\w.-]*$/.test(value)) {
        const items = matchCommands(commands, value.slice(1)).slice(0, POPUP_LIMIT);
        setPopup(items.length ? { kind: "command", items } : undefined);
        setActive(0);
        return;
      }
      const mention = mentionAt(value, caret);
      if (!mention) {
        setPopup(undefined);
        return;
      }
      filesCache.current ??= listFiles().catch((error) => {
        report(`Could not list the workspace files: ${errorMessage(error)}.`);
        return [];
      });
      const paths = await filesCache.current;
      // The text may have moved on while the list loaded; only show results for the current text.
      if (textarea.current && textarea.current.value !== value) return;
      const items = filterMentions(paths, mention.query);
      setPopup(items.length ? { kind: "mention", query: mention.query, start: mention.start, items } : undefined);
      setActive(0);
    },
    [commands, listFiles, report],
  );

  const addFile = useCallback((file: FileAttachment) => {
    setFiles((current) => (current.some((f) => f.filename === file.filename && f.url === file.url) ? current : [...current, file]));
  }, []);

  const choose = useCallback(
    (index: number) => {
      if (!popup) return;
      if (popup.kind === "command") {
        const command = popup.items[index];
        if (!command) return;
        setText(`/${command.name} `);
        setPopup(undefined);
        return;
      }
      const path = popup.items[index];
      if (!path) return;
      const before = text.slice(0, popup.start);
      const after = text.slice(popup.start + 1 + popup.query.length);
      const inserted = `@${path} `;
      setText(before + inserted + after.replace(/^\s+/, ""));
      setPopup(undefined);
      const caret = before.length + inserted.length;
      requestAnimationFrame(() => textarea.current?.setSelectionRange(caret, caret));
      readAttachment(path).then(addFile, (error: unknown) => report(`Could not attach ${path}: ${errorMessage(error)}.`));
    },
    [popup, text, readAttachment, addFile, report],
  );

  const submit = useCallback(() => {
    const value = text.trim();
    if (busy || disabledReason || (!value && files.length === 0)) return;
    const slash = parseSlash(value);
    const command = slash && commands.find((c) => c.name === slash.name);
    if (slash && command) onCommand(command, slash.args);
    else onSend({ text: value, files });
    setText("");
    setFiles([]);
    setPopup(undefined);
    // The next @ should see files created since.
    filesCache.current = undefined;
  }, [text, files, busy, disabledReason, commands, onCommand, onSend]);

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    if (popup) {
      const count = popup.items.length;
      if (event.key === "ArrowDown") {
        event.preventDefault();
        setActive((i) => (i + 1) % count);
        return;
      }
      if (event.key === "ArrowUp") {
        event.preventDefault();
        setActive((i) => (i - 1 + count) % count);
        return;
      }
      if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") {
        event.preventDefault();
        // Enter on a complete command runs it at once; only a partial name is completed first.
        if (event.key === "Enter" && popup.kind === "command" && isCompleteCommand(text, commands)) submit();
        else choose(active);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setPopup(undefined);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      submit();
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const images = Array.from(event.clipboardData.items)
      .filter((item) => item.kind === "file" && item.type.startsWith("image/"))
      .map((item) => item.getAsFile())
      .filter((file): file is File => file !== null);
    if (images.length === 0) return;
    event.preventDefault();
    if (!supportsImages) {
      report("The selected model does not accept images. Pick a vision model to paste images.");
      return;
    }
    for (const image of images) {
      if (image.size > MAX_PASTED_IMAGE_BYTES) {
        report(`The pasted image is ${Math.round(image.size / 1024 / 1024)} MB; images up to ${MAX_PASTED_IMAGE_BYTES / 1024 / 1024} MB can be attached.`);
        continue;
      }
      const number = ++pastedCount.current;
      const extension = image.type.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "png";
      readAsDataUrl(image).then(
        (url) => addFile({ mime: image.type, filename: image.name && image.name !== "image.png" ? image.name : `pasted-image-${number}.${extension}`, url }),
        (error: unknown) => report(`Could not read the pasted image: ${errorMessage(error)}.`),
      );
    }
  };

  useEffect(() => {
    // Keep the box sized to its content, up to a limit (CSS max-height).
    const element = textarea.current;
    if (!element) return;
    element.style.height = "auto";
    element.style.height = `${element.scrollHeight}px`;
  }, [text]);

  const activeId = popup ? `${listboxId}-${active}` : undefined;
  const sendDisabled = busy || Boolean(disabledReason) || (!text.trim() && files.length === 0);
  const popupItems = useMemo(() => popup?.items ?? [], [popup]);

  return (
    <div className="prompt-box">
      {files.length > 0 && (
        <div className="prompt-attachments" aria-label="Attachments">
          {files.map((file, index) => (
            <AttachmentChip key={`${file.filename}-${index}`} {...file} onRemove={() => setFiles((f) => f.filter((_, i) => i !== index))} />
          ))}
        </div>
      )}
      {popup && (
        <ul className="prompt-popup" role="listbox" id={listboxId} aria-label={popup.kind === "mention" ? "Workspace files" : "Commands"}>
          {popupItems.map((item, index) => {
            const label = typeof item === "string" ? item : `/${item.name}`;
            return (
              <li
                key={label}
                id={`${listboxId}-${index}`}
                role="option"
                aria-selected={index === active}
                className={index === active ? "prompt-option prompt-option-active" : "prompt-option"}
                onMouseDown={(event) => {
                  event.preventDefault();
                  choose(index);
                }}
              >
                <span className="prompt-option-label">{label}</span>
                {typeof item !== "string" && <span className="prompt-option-description">{item.description}</span>}
              </li>
            );
          })}
        </ul>
      )}
      <textarea
        ref={textarea}
        className="prompt-input"
        aria-label="Message"
        aria-describedby={hintId}
        aria-autocomplete="list"
        // No aria-expanded: a multi-line textbox may not carry it (only a combobox may, and a
        // combobox is single-line). aria-controls and aria-activedescendant tell what the list is.
        aria-controls={popup ? listboxId : undefined}
        aria-activedescendant={activeId}
        rows={2}
        value={text}
        placeholder="Ask the agent… (@ to mention a file, / for commands)"
        onChange={(event) => {
          setText(event.target.value);
          void updatePopup(event.target.value, event.target.selectionStart ?? event.target.value.length);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => setPopup(undefined)}
      />
      <div className="prompt-bar">
        <span id={hintId} className="prompt-hint">
          {disabledReason ?? "Enter to send, Shift+Enter for a new line"}
        </span>
        {busy ? (
          <button type="button" className="button button-danger" onClick={onStop}>
            Stop
          </button>
        ) : null}
        <button type="button" className="button button-primary" disabled={sendDisabled} onClick={submit}>
          Send
        </button>
      </div>
    </div>
  );
}

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("unreadable"));
    reader.readAsDataURL(file);
  });
}
