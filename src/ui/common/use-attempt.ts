// A form's async action: busy while it runs (buttons disabled), its error kept as the problem to show.
import { useState } from "react";
import { errorMessage } from "../../base";

export function useAttempt(): {
  busy: boolean;
  problem: string | undefined;
  setProblem(problem: string | undefined): void;
  attempt(action: () => Promise<void>): Promise<void>;
} {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const attempt = async (action: () => Promise<void>) => {
    setProblem(undefined);
    setBusy(true);
    try {
      await action();
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, setProblem, attempt };
}
