// The one sanitiser for HTML built from untrusted text (model output, imported files, share links):
// an allowlist of tags and attributes, no scripts, no event handlers, no javascript: or remote-image
// URLs, and every link opening in a new tab without an opener or referrer.
import createDOMPurify, { type Config, type DOMPurify } from "dompurify";
import { findTransferFragment } from "../../transfer";

const ALLOWED_TAGS = [
  "a", "b", "blockquote", "br", "button", "code", "del", "details", "div", "em", "h1", "h2", "h3", "h4", "h5",
  "h6", "hr", "i", "img", "kbd", "li", "ol", "p", "pre", "s", "span", "strong", "sub", "summary", "sup",
  "table", "tbody", "td", "th", "thead", "tr", "ul",
];

const ALLOWED_ATTR = [
  "href", "title", "alt", "src", "class", "align", "start", "colspan", "rowspan", "type", "aria-label",
  "data-lang", "data-md-copy", "target", "rel",
];

/**
 * Absolute http(s) and mailto links, or scheme-less (relative) ones. Everything else (javascript:,
 * data:, vbscript:, file:, blob:) is dropped from href/src.
 */
const ALLOWED_URI = /^(?:(?:https?|mailto):|[^a-z]|[a-z+.-]+(?:[^a-z+.\-:]|$))/i;

/**
 * Images only from data: URLs of raster formats. A remote image in model output is an
 * exfiltration channel (the URL can carry workspace content), so it is never loaded.
 */
const SAFE_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,[a-z0-9+/=\s]+$/i;

const CONFIG: Config = {
  ALLOWED_TAGS,
  ALLOWED_ATTR,
  ALLOWED_URI_REGEXP: ALLOWED_URI,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  SANITIZE_NAMED_PROPS: true,
  FORBID_TAGS: ["style", "script", "iframe", "object", "embed", "form", "input", "textarea", "select", "svg", "math"],
  FORBID_ATTR: ["style", "id", "name"],
};

let instance: DOMPurify | undefined;

/** Our own DOMPurify instance, so our hooks never leak into anyone else's use of the library. */
function purifier(): DOMPurify {
  if (instance) return instance;
  const purify = createDOMPurify(window);
  // Set once: passing the config to every sanitize() call re-parses it (new sets and regexps each
  // time), which a streaming answer does many times per second.
  purify.setConfig(CONFIG);
  purify.addHook("afterSanitizeAttributes", (node) => {
    const element = node as Element;
    const tag = element.tagName;
    if (tag === "A") {
      const href = element.getAttribute("href");
      if (href !== null && opensTransfer(href, element.ownerDocument.baseURI)) {
        // Left as plain text: no href, so nothing to click or focus (see opensTransfer).
        element.removeAttribute("href");
        element.setAttribute("title", `A webcode ${findTransferFragment(href)?.kind ?? "share"} link, shown as text: open it only from a source you trust.`);
        element.setAttribute("class", "md-inert-link");
      }
      if (element.hasAttribute("href")) {
        element.setAttribute("target", "_blank");
        element.setAttribute("rel", "noopener noreferrer");
      } else {
        element.removeAttribute("target");
        element.removeAttribute("rel");
      }
    } else {
      element.removeAttribute("target");
      element.removeAttribute("rel");
    }
    if (tag === "IMG") {
      const src = element.getAttribute("src") ?? "";
      if (!SAFE_IMAGE.test(src)) element.removeAttribute("src");
    }
    if (tag === "BUTTON") {
      // Only our own copy buttons survive, and they can never submit anything.
      if (!element.hasAttribute("data-md-copy")) element.remove();
      else element.setAttribute("type", "button");
    }
  });
  instance = purify;
  return purify;
}

/**
 * Whether a link leads to webcode's own `#share=` / `#import=` handling: relative, fragment-only or on
 * this page's origin, with a share or import key in its fragment. A share or a model's answer could
 * otherwise put one click away a session that impersonates the user's, or an import that fetches
 * from a host the attacker picks.
 */
export function opensTransfer(href: string, base: string): boolean {
  const text = href.trim();
  const hash = text.indexOf("#");
  if (hash < 0 || !findTransferFragment(text.slice(hash))) return false;
  // Relative, fragment-only and scheme-relative links (and anything odd enough not to parse as an
  // absolute URL) resolve against this page: ours.
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return true;
  try {
    return new URL(text).origin === new URL(base).origin;
  } catch {
    return true;
  }
}

/** Sanitises an HTML string for insertion with innerHTML. Needs a DOM (page or happy-dom). */
export function sanitizeHtml(html: string): string {
  return purifier().sanitize(html) as string;
}

/** Whether `url` may be used as a link target (same rule the sanitiser applies). */
export function isSafeLinkUrl(url: string): boolean {
  const trimmed = url.trim();
  return ALLOWED_URI.test(trimmed) && !/^\s*(?:javascript|data|vbscript):/i.test(trimmed);
}

/**
 * A source URL from a model or provider as a link target: web addresses only (http, https), else
 * undefined (shown as text). Sources come from model output and are untrusted.
 */
export function safeWebUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const trimmed = url.trim();
  if (!/^https?:\/\/[^\s]+$/i.test(trimmed) || !isSafeLinkUrl(trimmed)) return undefined;
  try {
    return new URL(trimmed).href;
  } catch {
    return undefined;
  }
}

/** Whether `url` may be shown as an image (inline data URLs of raster images only). */
export function isSafeImageUrl(url: string): boolean {
  return SAFE_IMAGE.test(url.trim());
}
