// The "Accessibility" part of the Settings dialog: the terminal's screen-reader mode (xterm keeps
// its output in a live region and its rows readable). Applies at once, also to a running terminal.
import { useId } from "react";
import { useStore } from "zustand";
import { screenReaderMode, screenReaderModeOn, setScreenReaderSetting, type ScreenReaderSetting } from "../common";

export function AccessibilitySection() {
  const state = useStore(screenReaderMode);
  const baseId = useId();
  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Accessibility</h3>
      <div className="form-row">
        <label htmlFor={`${baseId}-sr`} className="form-label">
          Terminal screen reader mode
        </label>
        <select
          id={`${baseId}-sr`}
          className="select"
          value={state.setting}
          aria-describedby={`${baseId}-sr-hint`}
          onChange={(event) => setScreenReaderSetting(event.target.value as ScreenReaderSetting)}
        >
          <option value="auto">Automatic</option>
          <option value="on">On</option>
          <option value="off">Off</option>
        </select>
        <p id={`${baseId}-sr-hint`} className="form-hint">
          On: a screen reader reads the terminal&apos;s output as it comes. Browsers do not say whether a screen reader runs, so Automatic turns it on only when
          webcode is opened with ?screenReader=1. Now {screenReaderModeOn(state) ? "on" : "off"}.
        </p>
      </div>
    </section>
  );
}
