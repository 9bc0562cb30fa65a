// The status bar's "Tab moves focus" item: shown while the mode is on (click to turn it off), and as
// a hint while the keyboard is in the editor or the terminal, where Tab is otherwise typed.
import { useEffect, useState } from "react";
import { useStore } from "zustand";
import { tabFocusMode, toggleTabFocusMode } from "../common";

/** Regions where Tab is captured unless the mode is on. */
const TAB_TRAPS = ".editor-panel .monaco-editor, .terminal-host";

export function TabFocusStatus() {
  const on = useStore(tabFocusMode, (s) => s.on);
  const [inTrap, setInTrap] = useState(false);
  useEffect(() => {
    const update = () => setInTrap(document.activeElement?.closest(TAB_TRAPS) != null);
    update();
    document.addEventListener("focusin", update);
    document.addEventListener("focusout", update);
    return () => {
      document.removeEventListener("focusin", update);
      document.removeEventListener("focusout", update);
    };
  }, []);
  if (!on && !inTrap) return null;
  return (
    <button
      type="button"
      className={`status-item status-button${on ? " status-tab-focus-on" : ""}`}
      // Clicking would move the focus out of the editor; keep it where the user is.
      onMouseDown={(event) => event.preventDefault()}
      onClick={toggleTabFocusMode}
      aria-pressed={on}
      aria-keyshortcuts="Control+M"
      title={
        on
          ? "Tab moves the focus out of the editor and the terminal. Ctrl+M (or click) to type tabs again. F6 moves between regions."
          : "Tab is typed here. Ctrl+M makes Tab move the focus instead; F6 / Shift+F6 move between the file tree, editor, terminal and side panel."
      }
    >
      {on ? "Tab moves focus" : "Ctrl+M: Tab moves focus"}
    </button>
  );
}
