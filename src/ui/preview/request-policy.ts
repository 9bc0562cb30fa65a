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
