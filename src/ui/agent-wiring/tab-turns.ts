// One turn per session across tabs, with the Web Locks API (every browser webcode supports has it):
// a tab holds the lock `webcode.turn.<sessionId>` while its turn runs; another tab asking to start
// a turn of that session is refused at once with a message, and knows that the unfinished reply it
// loads is still being written (not interrupted). The lock goes when the tab closes or crashes.
import { UserFacingError } from "../../base";
import type { TurnCoordinator } from "../../agent";

export const TURN_ELSEWHERE_MESSAGE =
  "This session is running a turn in another webcode tab. Follow it here (the chat updates as it goes) or stop it in that tab, then send your message.";

const lockName = (sessionId: string) => `webcode.turn.${sessionId}`;

export function webLocksTurns(locks: LockManager): TurnCoordinator {
  return {
    run<T>(sessionId: string, turn: () => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        locks
          .request(lockName(sessionId), { ifAvailable: true }, async (lock) => {
            if (!lock) {
              reject(new UserFacingError(TURN_ELSEWHERE_MESSAGE, "turn-elsewhere"));
              return;
            }
            try {
              resolve(await turn());
            } catch (error) {
              reject(error);
            }
          })
          .catch(reject);
      });
    },
    async runningElsewhere(sessionId: string): Promise<boolean> {
      const state = await locks.query();
      return (state.held ?? []).some((lock) => lock.name === lockName(sessionId));
    },
  };
}
