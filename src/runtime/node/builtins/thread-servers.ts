// A worker thread's HTTP servers and local requests, relayed by its Worker through the program that
// started it, as the program's own: the thread's listen is the program's (the page's port registry
// sees the program), requests for it (from the page, or the program's own http.request/fetch) are
// passed on to the thread and its answer back; the thread's own requests go out as the program's.
// Request ids are the thread's own numbering (positive), so its answers always come back here.
import type { HostMessage, HttpRequestMessage, HttpResponsePart, SandboxEvent } from "../../sandbox/protocol";
import type { ServerBridge } from "../../sandbox/worker-kit";

export interface ThreadServerRelay {
  /** Takes the thread's server/request event; false when the event is not one of these. */
  handle(event: SandboxEvent): boolean;
  /** The thread ended: its servers close, its requests are given up. */
  close(): void;
}

export function createThreadServerRelay(servers: ServerBridge, send: (message: HostMessage) => void): ThreadServerRelay {
  const listening = new Set<number>();
  /** The thread's request id → the program's id for the same request. */
  const incoming = new Map<number, number>();
  /** The thread's own requests in flight: how to give each up. */
  const outgoing = new Map<number, () => void>();
  let nextId = 1;
  let closed = false;

  const request = (message: HttpRequestMessage) => {
    const id = nextId++;
    incoming.set(id, message.id);
    send({ ...message, id });
  };
  const abort = (programId: number) => {
    for (const [id, mapped] of incoming) if (mapped === programId) {
      incoming.delete(id);
      send({ type: "http-abort", id });
    }
  };
  const respond = (part: HttpResponsePart) => {
    const programId = incoming.get(part.id);
    if (programId === undefined) return;
    if (part.type === "http-end" || part.type === "http-error") incoming.delete(part.id);
    servers.respond({ ...part, id: programId });
  };

  return {
    handle(event) {
      switch (event.type) {
        case "server-listen":
          servers.listen(event.port, { request, abort }).then(
            (port) => {
              if (closed) return servers.close(port);
              listening.add(port);
              send({ type: "server-listen-answer", asked: event.port, port });
            },
            (error: { code?: string }) => send({ type: "server-listen-answer", asked: event.port, error: error.code === "EADDRINUSE" ? "EADDRINUSE" : "EACCES" }),
          );
          return true;
        case "server-close":
          if (listening.delete(event.port)) servers.close(event.port);
          return true;
        case "http-head":
        case "http-body":
        case "http-end":
        case "http-error":
          respond(event);
          return true;
        case "http-fetch": {
          const { id, type: _type, ...asked } = event;
          const stop = servers.fetch(asked, (part) => {
            if (part.type === "http-end" || part.type === "http-error") outgoing.delete(id);
            send({ type: "http-fetch-answer", part: { ...part, id } });
          });
          outgoing.set(id, stop);
          return true;
        }
        case "http-fetch-abort":
          outgoing.get(event.id)?.();
          outgoing.delete(event.id);
          return true;
        default:
          return false;
      }
    },
    close() {
      closed = true;
      for (const port of listening) servers.close(port);
      listening.clear();
      for (const stop of outgoing.values()) stop();
      outgoing.clear();
      // Requests the thread had not answered: their clients hear it went away, as when a program ends.
      for (const programId of incoming.values()) servers.respond({ type: "http-error", id: programId, message: "socket hang up" });
      incoming.clear();
    },
  };
}
