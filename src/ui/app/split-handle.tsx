// A drag handle between two panes: pointer drag, arrow keys (Shift = bigger steps), Home/End,
// announced as a focusable separator with its current value.
import { useRef, type KeyboardEvent, type PointerEvent } from "react";
import { PANE_LIMITS, type PaneName } from "./layout-store";

export const KEYBOARD_STEP = 16;
export const KEYBOARD_BIG_STEP = 64;

export interface SplitHandleProps {
  pane: PaneName;
  label: string;
  /** "vertical" separates side-by-side panes (drag left/right). */
  orientation: "vertical" | "horizontal";
  size: number;
  /** +1 when dragging right/down grows the pane, -1 when it shrinks it. */
  direction: 1 | -1;
  /** The largest size that fits the window now (defaults to the pane's fixed limit). */
  max?: number;
  onResize: (size: number) => void;
}

/** The size a key press asks for, or undefined when the key is not a resize key. */
export function sizeForKey(key: string, shift: boolean, props: Pick<SplitHandleProps, "pane" | "orientation" | "size" | "direction" | "max">): number | undefined {
  const step = shift ? KEYBOARD_BIG_STEP : KEYBOARD_STEP;
  const forward = props.orientation === "vertical" ? "ArrowRight" : "ArrowDown";
  const backward = props.orientation === "vertical" ? "ArrowLeft" : "ArrowUp";
  if (key === forward) return props.size + step * props.direction;
  if (key === backward) return props.size - step * props.direction;
  if (key === "Home") return PANE_LIMITS[props.pane].min;
  if (key === "End") return props.max ?? PANE_LIMITS[props.pane].max;
  return undefined;
}

export function SplitHandle(props: SplitHandleProps) {
  const drag = useRef<{ start: number; size: number } | undefined>(undefined);
  const limits = PANE_LIMITS[props.pane];

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { start: props.orientation === "vertical" ? event.clientX : event.clientY, size: props.size };
    document.body.classList.add(props.orientation === "vertical" ? "is-resizing-x" : "is-resizing-y");
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const start = drag.current;
    if (!start) return;
    const position = props.orientation === "vertical" ? event.clientX : event.clientY;
    props.onResize(start.size + (position - start.start) * props.direction);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = undefined;
    if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
    document.body.classList.remove("is-resizing-x", "is-resizing-y");
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const size = sizeForKey(event.key, event.shiftKey, props);
    if (size === undefined) return;
    event.preventDefault();
    props.onResize(size);
  };

  return (
    <div
      className={`split-handle split-handle-${props.orientation}`}
      role="separator"
      aria-label={props.label}
      // A vertical separator line sits between side-by-side panes.
      aria-orientation={props.orientation}
      aria-valuenow={props.size}
      aria-valuemin={limits.min}
      aria-valuemax={props.max ?? limits.max}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onKeyDown={onKeyDown}
    />
  );
}
