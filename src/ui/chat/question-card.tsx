// Questions the model asks through the question tool: each with its options (one or several) and
// a free answer, sent together. Dismissing stops the turn like a rejected permission.
import { useEffect, useId, useRef, useState } from "react";
import type { Question } from "../../agent";
import { announce, useTakeFocus } from "../common";
import type { PendingQuestion } from "./agent-port";

export interface QuestionCardProps {
  request: PendingQuestion;
  onAnswer(requestId: string, answers: string[][]): void;
  onDismiss?(requestId: string): void;
}

export function QuestionCard({ request, onAnswer, onDismiss }: QuestionCardProps) {
  const [chosen, setChosen] = useState<string[][]>(() => request.questions.map(() => []));
  const [custom, setCustom] = useState<string[]>(() => request.questions.map(() => ""));
  const [sent, setSent] = useState(false);
  const card = useRef<HTMLElement>(null);
  // Said at once (the turn waits on it) and focused unless the user is typing; once answered and
  // gone, the focus goes to the message box rather than falling to <body>.
  useEffect(() => announce(`The agent asks: ${request.questions.map((q) => q.question).join(" ")}`, "assertive"), [request.id]);
  useTakeFocus(card, (parent) => parent.closest(".chat-panel")?.querySelector<HTMLElement>("textarea.prompt-input"));
  const answers = request.questions.map((_, i) => {
    const typed = custom[i]!.trim();
    return typed ? [...chosen[i]!, typed] : chosen[i]!;
  });
  const complete = answers.every((a) => a.length > 0);
  const toggle = (index: number, label: string, multiple: boolean) => {
    setChosen((current) =>
      current.map((list, i) => {
        if (i !== index) return list;
        if (!multiple) return [label];
        return list.includes(label) ? list.filter((l) => l !== label) : [...list, label];
      }),
    );
  };
  return (
    <section ref={card} className="question-card" role="group" aria-label="Questions from the agent" tabIndex={-1}>
      {request.questions.map((question, index) => (
        <QuestionField
          key={index}
          question={question}
          chosen={chosen[index]!}
          custom={custom[index]!}
          onToggle={(label) => toggle(index, label, question.multiple)}
          onCustom={(value) => setCustom((c) => c.map((v, i) => (i === index ? value : v)))}
        />
      ))}
      <div className="card-buttons">
        <button
          type="button"
          className="button button-primary"
          disabled={!complete || sent}
          onClick={() => {
            setSent(true);
            card.current?.focus();
            onAnswer(request.id, answers);
          }}
        >
          Send answers
        </button>
        {onDismiss && (
          <button
            type="button"
            className="button"
            disabled={sent}
            onClick={() => {
              setSent(true);
              card.current?.focus();
              onDismiss(request.id);
            }}
          >
            Dismiss
          </button>
        )}
      </div>
    </section>
  );
}

function QuestionField(props: { question: Question; chosen: string[]; custom: string; onToggle(label: string): void; onCustom(value: string): void }) {
  const { question, chosen, custom } = props;
  const name = useId();
  const customId = useId();
  return (
    <fieldset className="question">
      <legend className="card-title">
        {question.header && <span className="question-header">{question.header}: </span>}
        {question.question}
      </legend>
      {question.options.map((option) => (
        <label key={option.label} className="question-option">
          <input
            type={question.multiple ? "checkbox" : "radio"}
            name={name}
            checked={chosen.includes(option.label)}
            onChange={() => props.onToggle(option.label)}
          />
          <span className="question-option-label">{option.label}</span>
          {option.description && <span className="question-option-description"> — {option.description}</span>}
        </label>
      ))}
      <label className="card-label" htmlFor={customId}>
        Your own answer
      </label>
      <input id={customId} className="text-input" type="text" value={custom} onChange={(event) => props.onCustom(event.target.value)} />
    </fieldset>
  );
}
