// The top bar's "Settings" button and the dialog it opens.
import { useState } from "react";
import { SettingsDialog, type SettingsDialogProps } from "./settings-dialog";

export interface SettingsButtonProps extends Omit<SettingsDialogProps, "onClose"> {
  /** Open state owned by the caller (e.g. the chat's "Open Settings" also opens it). */
  open?: boolean;
  onOpenChange?(open: boolean): void;
}

export function SettingsButton({ open: controlled, onOpenChange, ...dialog }: SettingsButtonProps) {
  const [own, setOwn] = useState(false);
  const open = controlled ?? own;
  const setOpen = (value: boolean) => {
    setOwn(value);
    onOpenChange?.(value);
  };
  return (
    <>
      <button type="button" className="button top-bar-button" onClick={() => setOpen(true)}>
        Settings
      </button>
      {open && <SettingsDialog {...dialog} onClose={() => setOpen(false)} />}
    </>
  );
}
