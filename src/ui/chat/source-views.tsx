// What the provider did on its own in a reply: tools it ran itself (web search, web fetch, code
// execution) with their query and results, the sources the answer cites (links opening in a new
// tab, web addresses only), and the note shown when the model declined to answer.
import type { PartRecord } from "../../storage";
import { revealInvisibleChars } from "../../base";
import { safeWebUrl } from "../markdown";

type ProviderToolPart = Extract<PartRecord, { type: "provider-tool" }>;
type SourcePart = Extract<PartRecord, { type: "source" }>;

const TOOL_LABELS: Record<string, string> = {
  web_search: "Web search",
  google_search: "Google search",
  web_fetch: "Web fetch",
  code_execution: "Code execution",
  tool_search_tool_regex: "Tool search",
  tool_search_tool_bm25: "Tool search",
};

/** The one input field worth a summary line: the query, the URL or the code. */
function describeInput(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const record = input as Record<string, unknown>;
  for (const key of ["query", "url", "code", "pattern"]) if (typeof record[key] === "string") return record[key];
  return "";
}

/** Result entries that name a page (Anthropic and OpenAI web search results, fetched pages). */
function resultLinks(output: unknown): Array<{ url: string; title?: string }> {
  const items = Array.isArray(output) ? output : output && typeof output === "object" && Array.isArray((output as { sources?: unknown }).sources) ? (output as { sources: unknown[] }).sources : [];
  const out: Array<{ url: string; title?: string }> = [];
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const { url, title } = item as { url?: unknown; title?: unknown };
    if (typeof url === "string") out.push({ url, ...(typeof title === "string" && { title }) });
  }
  return out;
}

function outputText(output: unknown): string {
  if (typeof output === "string") return output;
  try {
    return JSON.stringify(output, null, 2) ?? "";
  } catch {
    return String(output);
  }
}

export function SourceLink({ url, title }: { url?: string; title?: string }) {
  const href = safeWebUrl(url);
  const label = revealInvisibleChars((title?.trim() || url || "Untitled source").slice(0, 300));
  if (!href) return <span className="source-text">{label}</span>;
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" title={href}>
      {label}
    </a>
  );
}

export function ProviderToolView({ part }: { part: ProviderToolPart }) {
  const label = TOOL_LABELS[part.tool] ?? part.tool;
  // OpenAI says what it searched in the result (action.query), Anthropic in the call's input.
  const output = part.state.output;
  const action = output && typeof output === "object" && "action" in output ? (output as { action: unknown }).action : undefined;
  const input = describeInput(part.state.input) || describeInput(action);
  const links = resultLinks(part.state.output);
  const status = part.state.status === "running" ? " (running…)" : part.state.status === "error" ? " (failed)" : "";
  return (
    <details className="part-provider-tool">
      <summary>
        {label} by the provider{input ? `: ${revealInvisibleChars(input.slice(0, 300))}` : ""}
        {status}
      </summary>
      {links.length > 0 ? (
        <ul className="provider-tool-results" aria-label={`${label} results`}>
          {links.map((link, i) => (
            <li key={`${link.url}-${i}`}>
              <SourceLink url={link.url} title={link.title} />
            </li>
          ))}
        </ul>
      ) : (
        part.state.output !== undefined && <pre className="provider-tool-output">{revealInvisibleChars(outputText(part.state.output).slice(0, 20_000))}</pre>
      )}
    </details>
  );
}

export function sourcesOf(parts: readonly PartRecord[]): SourcePart[] {
  return parts.filter((p): p is SourcePart => p.type === "source");
}

/** The sources of one reply, under the answer. */
export function SourceList({ sources }: { sources: SourcePart[] }) {
  if (sources.length === 0) return null;
  return (
    <nav className="message-sources" aria-label="Sources">
      <span className="message-sources-label">Sources:</span>
      <ol>
        {sources.map((source) => (
          <li key={source.id}>
            {source.sourceType === "url" ? <SourceLink url={source.url} title={source.title} /> : <span className="source-text">{revealInvisibleChars(source.title ?? source.filename ?? "Document")}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A reply the model or the provider's filter ended as a refusal. */
export function isRefusal(finish: string | undefined): boolean {
  return finish === "content-filter";
}

export function RefusalNote() {
  return (
    <p className="message-refusal" role="status">
      The model declined to answer (its provider ended the reply as a refusal or filtered it). Rephrase the request, or try another model.
    </p>
  );
}
