// node:net in the browser runtime: loads, with isIP/isIPv4/isIPv6 working; sockets and servers
// throw the one line naming WebContainer. Replaced by the servers of issue 29 (one factory per module).
import { unsupportedModule } from "../unsupported";

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIPv6(input: unknown): boolean {
  if (typeof input !== "string" || !input.includes(":")) return false;
  try {
    // The URL parser validates IPv6 literals (zone ids aside), as Node's inet_pton would.
    new URL(`http://[${input.replace(/%.*$/, "")}]/`);
    return true;
  } catch {
    return false;
  }
}

export function createNet(): Record<string, unknown> {
  const isIPv4 = (input: unknown) => typeof input === "string" && IPV4.test(input);
  return unsupportedModule("net", { functions: ["connect", "createConnection", "createServer"], classes: ["Server", "Socket", "Stream", "BlockList", "SocketAddress"] }, {
    isIP: (input: unknown) => (isIPv4(input) ? 4 : isIPv6(input) ? 6 : 0),
    isIPv4,
    isIPv6,
    getDefaultAutoSelectFamily: () => true,
    setDefaultAutoSelectFamily: () => undefined,
    getDefaultAutoSelectFamilyAttemptTimeout: () => 250,
    setDefaultAutoSelectFamilyAttemptTimeout: () => undefined,
  });
}
