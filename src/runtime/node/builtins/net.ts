// node:net in the browser runtime: the address helpers frameworks use (Express reads net.isIP), and
// sockets, which a worker cannot open: creating one fails with one line naming what runs it (an
// HTTP server is http.createServer, reached as localhost:PORT).
import events from "events/";

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function isIPv6(input: string): boolean {
  const text = String(input).replace(/%[\w.]+$/, "");
  if (!text.includes(":")) return false;
  try {
    // The URL parser accepts exactly the IPv6 literals (embedded IPv4 and :: included).
    return new URL(`http://[${text}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

const isIPv4 = (input: string) => IPV4.test(String(input));
const isIP = (input: string) => (isIPv4(input) ? 4 : isIPv6(input) ? 6 : 0);

function noSockets(what: string): Error {
  return Object.assign(new Error(`net.${what} is not available in the browser runtime: a worker cannot open TCP sockets. An HTTP server (http.createServer) works and is reached as localhost:PORT; WebContainer runs raw sockets.`), {
    code: "ERR_WEBCODE_NEEDS_WEBCONTAINER",
  });
}

export function createNet() {
  class Socket extends events.EventEmitter {
    constructor() {
      super();
      throw noSockets("Socket");
    }
  }
  class Server extends events.EventEmitter {
    constructor() {
      super();
      throw noSockets("createServer");
    }
  }
  class BlockList {
    addAddress(): void {}
    check(): boolean {
      return false;
    }
  }
  return {
    isIP,
    isIPv4,
    isIPv6,
    Socket,
    Stream: Socket,
    Server,
    BlockList,
    createServer: () => {
      throw noSockets("createServer");
    },
    connect: () => {
      throw noSockets("connect");
    },
    createConnection: () => {
      throw noSockets("createConnection");
    },
    getDefaultAutoSelectFamily: () => true,
    setDefaultAutoSelectFamily: () => undefined,
  };
}
