// The right-hand tab host: preview now, chat and others later. Panels register as contributions;
// each tab keeps its content mounted while hidden so a chat or a preview does not lose its state.
import { useRef, type KeyboardEvent } from "react";
import { ErrorBoundary } from "../common";
import { byOrder, type PanelContribution } from "./contributions";
import type { WorkbenchServices } from "./workbench-context";

export interface RightPanelProps {
  panels: PanelContribution[];
  selected: string | undefined;
  onSelect(id: string): void;
  services: WorkbenchServices;
}

export function RightPanel({ panels, selected, onSelect, services }: RightPanelProps) {
  const ordered = byOrder(panels);
  const current = ordered.find((p) => p.id === selected) ?? ordered[0];
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    let next: number;
    if (event.key === "ArrowRight") next = (index + 1) % ordered.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + ordered.length) % ordered.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = ordered.length - 1;
    else return;
    event.preventDefault();
    const panel = ordered[next]!;
    onSelect(panel.id);
    list.current?.querySelector<HTMLElement>(`#panel-tab-${CSS.escape(panel.id)}`)?.focus();
  };
  return (
    <section className="right-panel" aria-label="Side panel">
      <div className="panel-tabs" role="tablist" aria-label="Side panels" ref={list}>
        {ordered.map((panel, index) => (
          <button
            key={panel.id}
            id={`panel-tab-${panel.id}`}
            type="button"
            role="tab"
            className="panel-tab"
            aria-selected={panel === current}
            aria-controls={`panel-${panel.id}`}
            tabIndex={panel === current ? 0 : -1}
            onClick={() => onSelect(panel.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
          >
            {panel.title}
          </button>
        ))}
      </div>
      {ordered.map((panel) => (
        <div
          key={panel.id}
          id={`panel-${panel.id}`}
          className="panel-content"
          role="tabpanel"
          aria-labelledby={`panel-tab-${panel.id}`}
          hidden={panel !== current}
        >
          {/* A panel that fails to render shows why in its tab; the other panels keep working. */}
          <ErrorBoundary>{panel.render(services)}</ErrorBoundary>
        </div>
      ))}
    </section>
  );
}
