// Rendering helpers for the UI component tests (happy-dom + react-dom + act); not a test file.
import { act, type ReactElement } from "react";
import { createRoot, type Root } from "react-dom/client";

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

export interface Rendered {
  container: HTMLElement;
  rerender(element: ReactElement): Promise<void>;
  unmount(): Promise<void>;
}

export async function render(element: ReactElement): Promise<Rendered> {
  const container = document.createElement("div");
  document.body.appendChild(container);
  let root!: Root;
  await act(async () => {
    root = createRoot(container);
    root.render(element);
  });
  return {
    container,
    rerender: (next) => act(async () => root.render(next)),
    unmount: async () => {
      await act(async () => root.unmount());
      container.remove();
    },
  };
}

/** Lets pending promises and React updates settle. */
export async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/**
 * Settles until `condition` holds, for up to 10 s of wall time (a loaded machine may need many
 * turns for a few storage writes); fails naming `what` when it never does.
 */
export async function settleUntil(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Waited ${timeoutMs} ms for ${what}`);
    await settle();
  }
}

/** Types into a textarea or input the way a user does (React sees an input event). */
export async function typeInto(element: HTMLTextAreaElement | HTMLInputElement, value: string): Promise<void> {
  await act(async () => {
    const proto = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
    Object.getOwnPropertyDescriptor(proto, "value")!.set!.call(element, value);
    element.setSelectionRange?.(value.length, value.length);
    element.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settle();
}

export async function press(element: Element, key: string, init: KeyboardEventInit = {}): Promise<void> {
  await act(async () => {
    element.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true, ...init }));
  });
  await settle();
}

export async function click(element: Element | null | undefined): Promise<void> {
  if (!element) throw new Error("nothing to click");
  await act(async () => {
    (element as HTMLElement).click();
  });
  await settle();
}

/** The button whose accessible name (text or aria-label) is `name`. */
export function button(container: ParentNode, name: string): HTMLButtonElement | undefined {
  return Array.from(container.querySelectorAll("button")).find(
    (b) => (b.getAttribute("aria-label") ?? b.textContent ?? "").trim() === name,
  );
}

export function byLabel<T extends Element = HTMLElement>(container: ParentNode, label: string): T | undefined {
  const direct = container.querySelector<HTMLElement>(`[aria-label="${label}"]`);
  if (direct) return direct as unknown as T;
  const labelElement = Array.from(container.querySelectorAll("label")).find((l) => l.textContent?.trim() === label);
  const id = labelElement?.getAttribute("for");
  return (id ? (container.querySelector(`[id="${id}"]`) as unknown as T) : undefined) ?? undefined;
}
