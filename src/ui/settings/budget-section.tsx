// The "Budget per session" part of the Settings dialog: an optional limit in dollars and one in
// tokens. A turn that would pass either stops before the step, and says so in the chat.
import { useEffect, useId, useState } from "react";
import { useStore } from "zustand";
import type { BudgetSettings, SessionBudgetChoice } from "./budget-settings";

const FIELDS: readonly { kind: keyof SessionBudgetChoice; label: string; step: string; placeholder: string }[] = [
  { kind: "dollars", label: "Dollars", step: "0.01", placeholder: "no limit" },
  { kind: "tokens", label: "Tokens", step: "1", placeholder: "no limit" },
];

export function BudgetSection({ budget, onProblem }: { budget: BudgetSettings; onProblem(action: () => Promise<void>): void }) {
  const baseId = useId();
  return (
    <section className="settings-section" aria-labelledby={`${baseId}-title`}>
      <h3 id={`${baseId}-title`}>Budget per session</h3>
      <p className="form-hint">Optional. Before a step that would pass it, the agent stops and says so; raise it here to go on.</p>
      {FIELDS.map((field) => (
        <BudgetField key={field.kind} id={`${baseId}-${field.kind}`} budget={budget} onProblem={onProblem} {...field} />
      ))}
    </section>
  );
}

function BudgetField(props: {
  id: string;
  budget: BudgetSettings;
  kind: keyof SessionBudgetChoice;
  label: string;
  step: string;
  placeholder: string;
  onProblem(action: () => Promise<void>): void;
}) {
  const { id, budget, kind, label, step, placeholder, onProblem } = props;
  const stored = useStore(budget.store, (s) => s.budget[kind]);
  const [text, setText] = useState(stored === undefined ? "" : String(stored));
  useEffect(() => setText(stored === undefined ? "" : String(stored)), [stored]);
  const commit = () => {
    const trimmed = text.trim();
    const value = trimmed === "" ? undefined : Number(trimmed);
    if (value === stored) return;
    onProblem(() => budget.set(kind, value));
  };
  return (
    <div className="form-row form-row-inline">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="text-input"
        // Text, not type="number": the browser would silently drop what it cannot parse, and the
        // user is told instead (BudgetSettings.set).
        type="text"
        inputMode={step === "1" ? "numeric" : "decimal"}
        placeholder={placeholder}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === "Enter") commit();
        }}
      />
    </div>
  );
}
