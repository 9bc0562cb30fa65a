// Measures the workbench element and hands its size to the layout store, so pane sizes are fitted
// to the window on first layout, on every window resize and when the notice row comes or goes.
import { useCallback, useEffect, useRef } from "react";
import type { LayoutStore } from "./layout-store";

/** A ref callback for the workbench element. */
export function useWorkbenchSize(layout: LayoutStore): (element: HTMLElement | null) => void {
  const cleanup = useRef<(() => void) | undefined>(undefined);
  useEffect(() => () => cleanup.current?.(), []);
  return useCallback(
    (element: HTMLElement | null) => {
      cleanup.current?.();
      cleanup.current = undefined;
      if (!element) return;
      const measure = () => layout.setViewport({ width: element.clientWidth, height: element.clientHeight });
      measure();
      // ResizeObserver sees every cause (window, notice row); the window event covers engines without it.
      const observer = typeof ResizeObserver === "undefined" ? undefined : new ResizeObserver(measure);
      observer?.observe(element);
      window.addEventListener("resize", measure);
      cleanup.current = () => {
        observer?.disconnect();
        window.removeEventListener("resize", measure);
      };
    },
    [layout],
  );
}
