// Where an `#import=<url>` download would go, said before any request is made: the host, and
// whether it is this computer or the local network. A link from anywhere can name such an address
// (a router's admin page, a dev server), and the download would come from the user's own network.

export type LocalAddressKind = "loopback" | "private" | "link-local";

function ipv4(host: string): number[] | undefined {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return undefined;
  const bytes = parts.map(Number);
  return bytes.every((b) => b <= 255) ? bytes : undefined;
}

function ipv4Kind([a, b]: number[]): LocalAddressKind | undefined {
  if (a === 127 || a === 0) return "loopback";
  if (a === 10 || (a === 172 && b! >= 16 && b! <= 31) || (a === 192 && b === 168) || (a === 100 && b! >= 64 && b! <= 127)) return "private";
  if (a === 169 && b === 254) return "link-local";
  return undefined;
}

/**
 * Whether a URL's host is this computer (loopback), a private network or a link-local address, by
 * its name or literal address. The URL parser has already turned odd IPv4 spellings ("2130706433",
 * "0x7f.1") into dotted form. A public name that resolves to a private address cannot be seen from
 * here: the ask always names the host, so the user judges that one.
 */
export function localAddressKind(url: URL): LocalAddressKind | undefined {
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (host.endsWith(".local") || host.endsWith(".internal") || host.endsWith(".lan") || host.endsWith(".home.arpa")) return "private";
  const v4 = ipv4(host);
  if (v4) return ipv4Kind(v4);
  if (!host.startsWith("[")) return undefined;
  const v6 = host.slice(1, -1);
  if (v6 === "::1" || v6 === "::") return "loopback";
  // IPv4-mapped (::ffff:7f00:1 once parsed): judge the IPv4 address inside.
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(v6);
  if (mapped) {
    const hi = parseInt(mapped[1]!, 16);
    const lo = parseInt(mapped[2]!, 16);
    return ipv4Kind([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (/^f[cd][0-9a-f]{0,2}:/.test(v6)) return "private";
  if (/^fe[89ab][0-9a-f]?:/.test(v6)) return "link-local";
  return undefined;
}

/** The warning to show for such an address, or undefined for a public one. */
export function localAddressWarning(url: URL): string | undefined {
  switch (localAddressKind(url)) {
    case "loopback":
      return `${url.host} is this computer. A link from elsewhere should not make webcode download from your own machine: continue only if you expected this.`;
    case "private":
      return `${url.host} is on your local network (a router, a printer, another computer). A link from elsewhere should not make webcode reach into it: continue only if you expected this.`;
    case "link-local":
      return `${url.host} is a link-local address on your network. Continue only if you expected this.`;
    default:
      return undefined;
  }
}
