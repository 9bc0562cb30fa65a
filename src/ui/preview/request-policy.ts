// The origins each built-in preview's pages may reach, as the user allowed them in the Preview
// panel ("Allow <origin>"). Everything else is blocked by the Content-Security-Policy the service
// worker puts on every preview response (src/sw/service-worker.ts previewRequestPolicy); the page
// side of the worker (service-worker.ts) hands the list with each answer.
//
// Kept in memory for the life of this page, per preview session: a session's URL prefix
// (/__preview/<session>/) is unguessable and belongs to one served folder of one workspace, so a
// workspace's grants never apply to another's preview. Reloading webcode forgets them all: the next
// preview starts with nothing allowed again.

/** The URL prefix of the built-in preview session `url` belongs to ("http://host/__preview/<id>/"). */
export function previewSessionOf(url: string): string | undefined {
  return /^(https?:\/\/[^/]+\/__preview\/[A-Za-z0-9_-]+\/)/.exec(url)?.[1];
}

/** The origin a blocked request went to, as a policy can name it; undefined for anything else (inline, eval, data:). */
export function blockedOrigin(blockedUri: string): string | undefined {
  try {
    const url = new URL(blockedUri);
    return /^(https?|wss?):$/.test(url.protocol) ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export class PreviewRequestPolicies {
  private readonly allowed = new Map<string, Set<string>>();
  private readonly opened = new Set<string>();

  /**
   * Has the user opened the preview session `url` belongs to (or started it)? A session the agent
   * started is shown only after that (preview-panel.tsx); remembered for the page's life.
   */
  isOpened(url: string): boolean {
    const session = previewSessionOf(url);
    return session !== undefined && this.opened.has(session);
  }

  markOpened(url: string): void {
    const session = previewSessionOf(url);
    if (session) this.opened.add(session);
  }

  /** The origins allowed for the preview `url` belongs to. */
  allowedFor(url: string): string[] {
    const session = previewSessionOf(url);
    return session ? [...(this.allowed.get(session) ?? [])] : [];
  }

  allow(previewUrl: string, origin: string): void {
    const session = previewSessionOf(previewUrl);
    const checked = blockedOrigin(origin);
    if (!session || checked === undefined) return;
    let origins = this.allowed.get(session);
    if (!origins) this.allowed.set(session, (origins = new Set()));
    origins.add(checked);
  }
}

/** This page's policies: read by the service worker's answers, written by the Preview panel. */
export const previewRequestPolicies = new PreviewRequestPolicies();

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * The document of the frame the Preview panel puts the previewed page in (as srcdoc). The page's
 * own policy (the service worker's) cannot stop the page from navigating itself (location.href, a
 * link, a meta refresh, a download link: CSP has no working navigate-to), and that request carries
 * whatever the address says. A frame's navigations are checked against its parent's frame-src,
 * though, before any request: so the page gets a parent of its own whose policy allows only the
 * preview's address and the origins allowed for it. This frame is webcode's origin (a srcdoc
 * document) so that the page's navigations still reach the service worker (an opaque-origin parent
 * would put the page in another storage partition, which the worker does not serve); it holds no
 * script (webcode's own policy, which it inherits, allows none inline), and the sandboxed page
 * inside can neither read it nor navigate it.
 */
export function previewFrameDocument(src: string, base: string, allowed: readonly string[]): string {
  const session = previewSessionOf(base);
  const origins = allowed.filter((origin) => blockedOrigin(origin) === origin);
  const frameSources = [session ?? "'none'", ...origins, "data:", "blob:"].join(" ");
  const policy = `default-src 'none'; style-src 'unsafe-inline'; frame-src ${frameSources}; form-action 'none'; base-uri 'none'`;
  return (
    `<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${escapeAttribute(policy)}">` +
    `<style>html,body{margin:0;height:100%;overflow:hidden;background:#fff}iframe{display:block;border:0;width:100%;height:100%}</style></head>` +
    `<body><iframe title="Previewed page" src="${escapeAttribute(src)}" allow="clipboard-write"></iframe></body></html>`
  );
}
