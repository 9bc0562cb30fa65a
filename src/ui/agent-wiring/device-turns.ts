// One turn per session across tabs and devices: the tabs' Web Lock first (tab-turns.ts), then,
// while the workspace syncs, the devices' lease in the shared document (storage/sync/turn-lease.ts).
// Without sync, turns are coordinated between this browser's tabs only, as before.
import type { TurnCoordinator } from "../../agent";
import type { TurnLeases } from "../../storage";

export type DeviceLeases = Pick<TurnLeases, "run" | "holder"> & Partial<Pick<TurnLeases, "endedRecently">>;

/**
 * @param leases the workspace's leases while it syncs (read at each turn: sync may start or stop)
 * @param stop   stops this page's turn of a session (another device asked)
 */
export function turnsAcrossDevices(local: TurnCoordinator | undefined, leases: () => DeviceLeases | undefined, stop: (sessionId: string) => void): TurnCoordinator {
  return {
    run<T>(sessionId: string, turn: () => Promise<T>): Promise<T> {
      const onDevices = () => {
        const current = leases();
        return current ? current.run(sessionId, turn, () => stop(sessionId)) : turn();
      };
      return local ? local.run(sessionId, onDevices) : onDevices();
    },
    async runningElsewhere(sessionId: string): Promise<boolean> {
      // A turn that just ended on another device: its last records may still be arriving.
      const current = leases();
      if (current?.holder(sessionId) || current?.endedRecently?.(sessionId)) return true;
      return local ? local.runningElsewhere(sessionId) : false;
    },
  };
}
