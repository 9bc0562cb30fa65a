// An OpenAI Responses stream in which the provider searched the web and cited what it found: the
// wire events of one turn, shared by the unit tests of the stream conversion and the browser test
// of web search in the chat.
import type { FakeTurn } from "./fake-model-server";

/** The page the searched turn cites. */
export const SEARCHED_URL = "https://vite.dev/blog/announcing-vite8";

/** One OpenAI Responses turn: a completed web search for "vite 8 release", then "Vite 8 is out." citing SEARCHED_URL. */
export function openAiSearchedTurn(): FakeTurn {
  let sequence = 0;
  const ev = (data: Record<string, unknown>) => ({ event: String(data.type), data: { ...data, sequence_number: sequence++ } });
  const base = { id: "resp_1", object: "response", created_at: 1_700_000_000, model: "gpt-5", output: [] };
  const search = { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search", query: "vite 8 release" } };
  const annotation = { type: "url_citation", start_index: 0, end_index: 14, url: SEARCHED_URL, title: "Announcing Vite 8" };
  const message = { type: "message", id: "msg_1", role: "assistant", status: "completed", content: [{ type: "output_text", text: "Vite 8 is out.", annotations: [annotation] }] };
  return {
    events: [
      ev({ type: "response.created", response: { ...base, status: "in_progress" } }),
      ev({ type: "response.output_item.added", output_index: 0, item: { type: "web_search_call", id: "ws_1", status: "in_progress" } }),
      ev({ type: "response.web_search_call.in_progress", output_index: 0, item_id: "ws_1" }),
      ev({ type: "response.web_search_call.completed", output_index: 0, item_id: "ws_1" }),
      ev({ type: "response.output_item.done", output_index: 0, item: search }),
      ev({ type: "response.output_item.added", output_index: 1, item: { ...message, status: "in_progress", content: [] } }),
      ev({ type: "response.content_part.added", item_id: "msg_1", output_index: 1, content_index: 0, part: { type: "output_text", text: "", annotations: [] } }),
      ev({ type: "response.output_text.delta", item_id: "msg_1", output_index: 1, content_index: 0, delta: "Vite 8 is out.", logprobs: [] }),
      ev({ type: "response.output_text.annotation.added", item_id: "msg_1", output_index: 1, content_index: 0, annotation_index: 0, annotation }),
      ev({ type: "response.output_text.done", item_id: "msg_1", output_index: 1, content_index: 0, text: "Vite 8 is out.", logprobs: [] }),
      ev({ type: "response.output_item.done", output_index: 1, item: message }),
      ev({
        type: "response.completed",
        response: {
          ...base,
          status: "completed",
          output: [search, message],
          usage: { input_tokens: 300, input_tokens_details: { cached_tokens: 0 }, output_tokens: 40, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 340 },
        },
      }),
    ],
  };
}
