// The notification area: errors and notices stacked in the bottom-right corner. Errors are
// announced assertively (role "alert"), notices politely.
import { useStore } from "zustand";
import { Icon } from "./icons";
import type { Notifications } from "./notifications";

export function Toasts({ notifications }: { notifications: Notifications }) {
  const items = useStore(notifications.store, (s) => s.items);
  return (
    <section className="toasts" aria-label="Notifications">
      {items.map((item) => (
        <div key={item.id} className={`toast toast-${item.level}`} role={item.level === "info" ? "status" : "alert"}>
          <Icon name={item.level} />
          <p className="toast-message">
            {item.message}
            {item.count > 1 && <span className="toast-count"> (×{item.count})</span>}
          </p>
          <button type="button" className="icon-button" aria-label="Dismiss notification" onClick={() => notifications.dismiss(item.id)}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </section>
  );
}
