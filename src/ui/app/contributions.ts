// Extension points of the shell: panels that live in the right-hand tab host (preview now, chat
// later) and items for the top bar (settings, import, share). Other panels register here instead
// of editing the shell.
import type { ReactNode } from "react";
import type { WorkbenchServices } from "./workbench-context";

export interface PanelContribution {
  id: string;
  /** The tab's visible (and accessible) name. */
  title: string;
  /** Lower comes first; the first panel is selected initially. */
  order?: number;
  render(services: WorkbenchServices): ReactNode;
}

export interface TopBarContribution {
  id: string;
  order?: number;
  render(services: WorkbenchServices): ReactNode;
}

export interface Contributions {
  panels: PanelContribution[];
  topBar: TopBarContribution[];
}

export function byOrder<T extends { order?: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
}
