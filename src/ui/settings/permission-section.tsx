// The "Permissions" part of the Settings dialog: for file edits, shell commands and web fetches,
// keep the default or make the agent always ask, always go ahead, or never do it.
import { useId } from "react";
import { useStore } from "zustand";
import { PERMISSION_KINDS, type PermissionChoice, type PermissionSettings } from "./permission-settings";

export function PermissionSection({ permissions, onProblem }: { permissions: PermissionSettings; onProblem(action: () => Promise<void>): void }) {
  const { choices } = useStore(permissions.store);
  const baseId = useId();
  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Permissions</h3>
      <p className="form-hint">What the agent may do without asking you. Changes apply to the next action.</p>
      {PERMISSION_KINDS.map(({ permission, label, defaultNote }) => (
        <div className="form-row form-row-inline" key={permission}>
          <label htmlFor={`${baseId}-${permission}`} className="permission-label">
            {label}
          </label>
          <select
            id={`${baseId}-${permission}`}
            className="select"
            value={choices[permission] ?? ""}
            title={`Default: ${defaultNote}`}
            onChange={(event) => onProblem(() => permissions.set(permission, (event.target.value || undefined) as PermissionChoice | undefined))}
          >
            <option value="">Default ({defaultNote.split(";")[0]})</option>
            <option value="ask">Ask first</option>
            <option value="allow">Allow</option>
            <option value="deny">Never</option>
          </select>
        </div>
      ))}
    </section>
  );
}
