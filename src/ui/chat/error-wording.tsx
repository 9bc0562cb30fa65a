// The AI SDK's error classes in plain words for the user, with the precise text one click away.
// The model still gets the precise text (tool results and stored errors are not rewritten): this
// is only how the chat shows them.

interface Wording {
  /** Matches the error's name or message. */
  pattern: RegExp;
  plain: string;
}

const WORDINGS: Wording[] = [
  {
    pattern: /AI_InvalidToolInputError|Invalid input for tool/i,
    plain: "The model called a tool with input the tool does not accept. It was told exactly what was wrong and can try again.",
  },
  {
    pattern: /AI_NoSuchToolError|tried to call unavailable tool|No such tool/i,
    plain: "The model asked for a tool that is not available here. It was told which tools it can use.",
  },
  {
    pattern: /AI_ToolCallRepairError/i,
    plain: "The model's tool call could not be understood or repaired.",
  },
  {
    pattern: /Failed to process successful response/i,
    plain: "The provider's answer broke off or could not be read. Sending the message again usually works.",
  },
  {
    pattern: /AI_JSONParseError|JSON parsing failed/i,
    plain: "Part of the reply could not be read (it was not valid JSON).",
  },
  {
    pattern: /AI_TypeValidationError|Type validation failed/i,
    plain: "The provider sent a reply in a shape webcode did not expect.",
  },
  {
    pattern: /AI_NoContentGeneratedError|No content generated/i,
    plain: "The model returned an empty reply.",
  },
  {
    pattern: /AI_InvalidResponseDataError|Invalid response data/i,
    plain: "The provider sent data webcode could not use.",
  },
];

/** A plain sentence for a known AI SDK error text, or undefined to show the text as it is. */
export function plainError(text: string): string | undefined {
  return WORDINGS.find((w) => w.pattern.test(text))?.plain;
}

/** An error text shown in plain words when it is a known AI SDK error, the original under "Details". */
export function ErrorText({ text, kind, className }: { text: string; kind?: string; className: string }) {
  const plain = plainError(kind ? `${kind}: ${text}` : text);
  if (!plain) return <span className={className}>{text}</span>;
  return (
    <span className={className}>
      {plain}{" "}
      <details className="error-details">
        <summary>Details</summary>
        <pre>{kind ? `${kind}: ${text}` : text}</pre>
      </details>
    </span>
  );
}
