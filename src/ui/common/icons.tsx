// Small inline SVG icons (16x16, currentColor) so the frame needs no icon font before Monaco loads.
// Icons are decorative: the button around them carries the accessible name.
import type { ReactNode } from "react";

export type IconName =
  | "new-file"
  | "new-folder"
  | "refresh"
  | "collapse"
  | "close"
  | "chevron-right"
  | "chevron-down"
  | "file"
  | "folder"
  | "folder-open"
  | "save"
  | "plus"
  | "rename"
  | "trash"
  | "warning"
  | "error"
  | "info"
  | "terminal"
  | "globe"
  | "clear"
  | "search";

const PATHS: Record<IconName, ReactNode> = {
  "new-file": (
    <>
      <path d="M9.5 1.5H4a1 1 0 0 0-1 1v11a1 1 0 0 0 1 1h4" />
      <path d="M9.5 1.5 13 5v3" />
      <path d="M9.5 1.5V5H13" />
      <path d="M12 10v5M9.5 12.5h5" />
    </>
  ),
  "new-folder": (
    <>
      <path d="M8 13.5H2.5a1 1 0 0 1-1-1v-9a1 1 0 0 1 1-1h3.5l1.5 1.5h6a1 1 0 0 1 1 1V8" />
      <path d="M12 10v5M9.5 12.5h5" />
    </>
  ),
  refresh: (
    <>
      <path d="M13.5 8A5.5 5.5 0 1 1 11.9 4.1" />
      <path d="M13.5 2v3h-3" />
    </>
  ),
  collapse: (
    <>
      <rect x="2.5" y="2.5" width="11" height="11" rx="1" />
      <path d="M5.5 8h5" />
    </>
  ),
  close: <path d="M4 4l8 8M12 4l-8 8" />,
  "chevron-right": <path d="M6 3.5 10.5 8 6 12.5" />,
  "chevron-down": <path d="M3.5 6 8 10.5 12.5 6" />,
  file: (
    <>
      <path d="M9.5 1.5H4a1 1 0 0 0-1 1v11a1 1 0 0 0 1 1h8a1 1 0 0 0 1-1V5z" />
      <path d="M9.5 1.5V5H13" />
    </>
  ),
  folder: <path d="M1.5 3.5a1 1 0 0 1 1-1h3.5l1.5 1.5h6a1 1 0 0 1 1 1v7.5a1 1 0 0 1-1 1h-11a1 1 0 0 1-1-1z" />,
  "folder-open": (
    <>
      <path d="M1.5 12.5v-9a1 1 0 0 1 1-1h3.5l1.5 1.5h5a1 1 0 0 1 1 1V6" />
      <path d="M1.5 12.5 3.5 6.5h11l-2 6z" />
    </>
  ),
  save: (
    <>
      <path d="M2.5 2.5h9l2 2v9h-11z" />
      <path d="M5 2.5v3.5h5V2.5M4.5 13.5V9h7v4.5" />
    </>
  ),
  plus: <path d="M8 3v10M3 8h10" />,
  rename: (
    <>
      <path d="M10.5 2.5l3 3-7.5 7.5H3v-3z" />
      <path d="M9 4l3 3" />
    </>
  ),
  trash: (
    <>
      <path d="M2.5 4h11M6 4V2.5h4V4M4 4l.7 9.5h6.6L12 4" />
    </>
  ),
  warning: (
    <>
      <path d="M8 1.8 15 14H1z" />
      <path d="M8 6v3.5M8 11.5v.5" />
    </>
  ),
  error: (
    <>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M5.5 5.5l5 5M10.5 5.5l-5 5" />
    </>
  ),
  info: (
    <>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M8 7v4.5M8 4.5v.5" />
    </>
  ),
  terminal: (
    <>
      <path d="M2.5 4.5 6 8l-3.5 3.5M7.5 12h6" />
    </>
  ),
  globe: (
    <>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M1.5 8h13M8 1.5c-2.2 2.5-2.2 10.5 0 13M8 1.5c2.2 2.5 2.2 10.5 0 13" />
    </>
  ),
  search: (
    <>
      <circle cx="7" cy="7" r="4.5" />
      <path d="M10.5 10.5 14 14" />
    </>
  ),
  clear: (
    <>
      <circle cx="8" cy="8" r="6.5" />
      <path d="M3.5 12.5l9-9" />
    </>
  ),
};

export function Icon({ name, size = 16 }: { name: IconName; size?: number }) {
  return (
    <svg
      className="icon"
      width={size}
      height={size}
      viewBox="0 0 16 16"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {PATHS[name]}
    </svg>
  );
}

/** A toolbar button showing only an icon; the label is its accessible name and tooltip. */
export function IconButton(props: {
  icon: IconName;
  label: string;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
  shortcut?: string;
  /** Tooltip instead of the label (e.g. why the button is disabled). */
  title?: string;
}) {
  return (
    <button
      type="button"
      className={`icon-button ${props.className ?? ""}`}
      aria-label={props.label}
      title={props.title ?? (props.shortcut ? `${props.label} (${props.shortcut})` : props.label)}
      onClick={props.onClick}
      disabled={props.disabled}
    >
      <Icon name={props.icon} />
    </button>
  );
}
