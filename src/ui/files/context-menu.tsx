// A small context menu (WAI-ARIA menu): opens at the pointer or the focused row, arrow keys move,
// Enter runs, Escape or a click elsewhere closes and focus returns to where it was.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";

export interface MenuItem {
  id: string;
  label: string;
  shortcut?: string;
  danger?: boolean;
  /** Shown but not runnable; `title` says why. */
  disabled?: boolean;
  title?: string;
  run(): void;
}

export interface ContextMenuProps {
  x: number;
  y: number;
  label: string;
  items: MenuItem[];
  onClose(): void;
}

export function ContextMenu({ x, y, label, items, onClose }: ContextMenuProps) {
  const menu = useRef<HTMLUListElement>(null);
  const [active, setActive] = useState(0);
  const [position, setPosition] = useState({ left: x, top: y });

  // Keep the menu inside the window.
  useLayoutEffect(() => {
    const rect = menu.current?.getBoundingClientRect();
    if (!rect) return;
    setPosition({
      left: Math.max(0, Math.min(x, window.innerWidth - rect.width - 4)),
      top: Math.max(0, Math.min(y, window.innerHeight - rect.height - 4)),
    });
  }, [x, y]);

  useEffect(() => {
    menu.current?.querySelectorAll<HTMLElement>("[role='menuitem']")[active]?.focus();
  }, [active]);

  useEffect(() => {
    const close = (event: Event) => {
      if (event.target instanceof Node && menu.current?.contains(event.target)) return;
      onClose();
    };
    window.addEventListener("mousedown", close, true);
    window.addEventListener("blur", onClose);
    window.addEventListener("resize", onClose);
    return () => {
      window.removeEventListener("mousedown", close, true);
      window.removeEventListener("blur", onClose);
      window.removeEventListener("resize", onClose);
    };
  }, [onClose]);

  const run = (item: MenuItem) => {
    if (item.disabled) return;
    onClose();
    item.run();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown") setActive((active + 1) % items.length);
    else if (event.key === "ArrowUp") setActive((active - 1 + items.length) % items.length);
    else if (event.key === "Home") setActive(0);
    else if (event.key === "End") setActive(items.length - 1);
    else if (event.key === "Escape" || event.key === "Tab") onClose();
    else if (event.key === "Enter" || event.key === " ") {
      const item = items[active];
      if (item) run(item);
    } else return;
    event.preventDefault();
    event.stopPropagation();
  };

  return (
    <ul
      ref={menu}
      className="context-menu"
      role="menu"
      aria-label={label}
      style={{ left: position.left, top: position.top }}
      onKeyDown={onKeyDown}
      onContextMenu={(event) => event.preventDefault()}
    >
      {items.map((item, index) => (
        <li
          key={item.id}
          role="menuitem"
          tabIndex={index === active ? 0 : -1}
          aria-disabled={item.disabled || undefined}
          title={item.title}
          className={`${index === active ? "is-active" : ""} ${item.danger ? "is-danger" : ""} ${item.disabled ? "is-disabled" : ""}`}
          onMouseEnter={() => setActive(index)}
          onClick={() => run(item)}
        >
          <span>{item.label}</span>
          {item.shortcut && <kbd>{item.shortcut}</kbd>}
        </li>
      ))}
    </ul>
  );
}
