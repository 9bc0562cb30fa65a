// The top bar's "Update ready" button: a new build of webcode is installed by the service worker
// (offline cache) and waits; pressing it switches to the new build and reloads the page.
import { useStore } from "zustand";
import type { TopBarContribution } from "../app/contributions";
import type { AppServiceWorker } from "./service-worker";

function UpdateNotice({ worker }: { worker: AppServiceWorker }) {
  const ready = useStore(worker.store, (s) => s.updateReady);
  if (!ready) return null;
  return (
    <button
      type="button"
      className="button button-primary"
      title="A new version of webcode is ready. Reload to use it (your files and sessions are kept)."
      onClick={() => worker.applyUpdate()}
    >
      Update ready: reload
    </button>
  );
}

export function updateTopBarItem(worker: AppServiceWorker): TopBarContribution {
  return { id: "app-update", order: -100, render: () => <UpdateNotice worker={worker} /> };
}
