// node:worker_threads' MessageChannel and MessagePort with Node's shape (an EventEmitter:
// on('message') gets the value, not an event; close() emits 'close' on both ends; a port listening
// for messages keeps the program running until it is closed or unref()'d, as in Node), over the
// platform's MessageChannel, which does the structured cloning and the delivery as a task.
// A port in a transfer list travels as its platform port (a web MessagePort is transferable between
// workers, so its messages then go straight between the two threads, never through the page): the
// value is sent in an envelope that says where the ports were (encode/decode), and the receiver
// wraps each in a Node port again. Closing a port whose other end is elsewhere tells it with a close
// note first (a web port has no 'close' event), so 'close' comes on both ends as in Node.
// Hand-written: no npm package gives Node's port API over a web MessagePort.
import events from "events/";
import { realSetTimeout, type EventLoop } from "../event-loop";

interface PlatformPort {
  onmessage: ((event: MessageEvent) => void) | null;
  postMessage(value: unknown, transfer?: Transferable[]): void;
  close(): void;
  unref?: () => void;
}

const EventEmitter = events as unknown as { new (): NodeJS.EventEmitter };
/** The platform's channel, taken before the program's globals are installed (its `MessageChannel` is Node's, below). */
const PlatformMessageChannel = globalThis.MessageChannel;

// Keys no program's own values use: an envelope carrying transferred ports, a port's place in it, the close note.
const ENVELOPE = "\u0000webcode:ports";
const PORT_AT = "\u0000webcode:port";
const CLOSE_NOTE = "\u0000webcode:close";

/** A value as it goes on a platform port: ports replaced by their places, their platform ports to transfer. */
export interface EncodedMessage {
  data: unknown;
  transfer: Transferable[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** A copy of value with each match replaced (plain objects and arrays only: what a message that carries ports is made of). */
function replaceDeep(value: unknown, replace: (value: unknown) => unknown, seen = new Map<unknown, unknown>()): unknown {
  const replaced = replace(value);
  if (replaced !== value) return replaced;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(replaceDeep(item, replace, seen));
    return copy;
  }
  if (isPlainObject(value)) {
    const copy: Record<string, unknown> = {};
    seen.set(value, copy);
    for (const [key, item] of Object.entries(value)) copy[key] = replaceDeep(item, replace, seen);
    return copy;
  }
  return value;
}

export function createMessagePorts(loop: EventLoop) {
  interface Channel {
    closed: boolean;
    /** The ends in this thread; one when the other end was transferred or came from elsewhere. */
    ends: NodeMessagePort[];
  }
  interface PortState {
    port: PlatformPort;
    channel: Channel;
    refed: boolean;
    listening: boolean;
    wantRef: boolean;
    /** ref() was called (and no unref() since): Node keeps the program alive for such a port even with no listener (emnapi holds a program so while its async work runs). */
    pinned: boolean;
    /** Sent to another thread: this object no longer speaks for the port. */
    detached: boolean;
    /** Values that came before a 'message' listener: Node's port holds them until one is added. */
    waiting: unknown[];
  }
  const internal = new WeakMap<NodeMessagePort, PortState>();

  const setRef = (state: PortState) => {
    const should = (state.pinned || (state.listening && state.wantRef)) && !state.channel.closed && !state.detached;
    if (should === state.refed) return;
    state.refed = should;
    if (should) loop.ref();
    else loop.unref();
  };

  class NodeMessagePort extends EventEmitter {
    constructor(port: PlatformPort, channel: Channel, key: symbol) {
      if (key !== CONSTRUCT) throw new TypeError("Illegal constructor");
      super();
      const state: PortState = { port, channel, refed: false, listening: false, wantRef: true, pinned: false, detached: false, waiting: [] };
      internal.set(this, state);
      // The platform port of a MessageChannel made in a Node process (the in-process tests) would keep that process alive; the program's refs decide.
      port.unref?.();
      port.onmessage = (event: MessageEvent) => {
        const data = event.data as unknown;
        if (isPlainObject(data) && data[CLOSE_NOTE] === true) return this.closedByPeer();
        const value = decode(data);
        if (this.listenerCount("message") === 0) return void state.waiting.push(value);
        loop.guard(() => this.emit("message", value));
      };
      this.on("newListener", (name: string) => {
        if (name !== "message") return;
        state.listening = true;
        setRef(state);
        if (state.waiting.length > 0) realSetTimeout(() => {
          for (const value of state.waiting.splice(0)) loop.guard(() => this.emit("message", value));
        }, 0);
      });
      this.on("removeListener", (name: string) => {
        if (name !== "message" || this.listenerCount("message") > 0) return;
        state.listening = false;
        setRef(state);
      });
    }

    postMessage(value: unknown, transferList?: readonly unknown[]): void {
      const state = internal.get(this)!;
      if (state.channel.closed || state.detached) return;
      if (transferList?.includes(this)) throw dataCloneError("Transfer list contains source port");
      const { data, transfer } = encode(value, transferList);
      state.port.postMessage(data, transfer);
    }

    /** The other end, in another thread, closed. */
    private closedByPeer(): void {
      const state = internal.get(this)!;
      if (state.channel.closed) return;
      state.channel.closed = true;
      state.port.close();
      setRef(state);
      loop.ref();
      realSetTimeout(() => {
        loop.unref();
        loop.guard(() => this.emit("close"));
      }, 0);
    }

    start(): void {}

    close(): void {
      const state = internal.get(this)!;
      if (state.channel.closed || state.detached) return;
      state.channel.closed = true;
      // The other end is in another thread: it hears of the close only from us.
      if (state.channel.ends.length === 1) state.port.postMessage({ [CLOSE_NOTE]: true });
      for (const end of state.channel.ends) {
        const endState = internal.get(end)!;
        endState.port.close();
        setRef(endState);
      }
      // Node emits 'close' on both ends, after the current operation.
      loop.ref();
      realSetTimeout(() => {
        loop.unref();
        for (const end of state.channel.ends) loop.guard(() => end.emit("close"));
      }, 0);
    }

    ref(): this {
      const state = internal.get(this)!;
      state.wantRef = true;
      state.pinned = true;
      setRef(state);
      return this;
    }

    unref(): this {
      const state = internal.get(this)!;
      state.wantRef = false;
      state.pinned = false;
      setRef(state);
      return this;
    }

    hasRef(): boolean {
      return internal.get(this)!.refed;
    }
  }
  const CONSTRUCT = Symbol("construct");

  class NodeMessageChannel {
    readonly port1: NodeMessagePort;
    readonly port2: NodeMessagePort;
    constructor() {
      const platform = new PlatformMessageChannel();
      const channel: Channel = { closed: false, ends: [] };
      this.port1 = new NodeMessagePort(platform.port1 as unknown as PlatformPort, channel, CONSTRUCT);
      this.port2 = new NodeMessagePort(platform.port2 as unknown as PlatformPort, channel, CONSTRUCT);
      channel.ends.push(this.port1, this.port2);
    }
  }

  /** A port that arrived from another thread, with Node's shape again. */
  function adopt(port: PlatformPort): NodeMessagePort {
    const channel: Channel = { closed: false, ends: [] };
    const adopted = new NodeMessagePort(port, channel, CONSTRUCT);
    channel.ends.push(adopted);
    return adopted;
  }

  /** Detaches a port sent away: its platform port goes, this object is left speaking for nothing (as Node's). */
  function detach(port: NodeMessagePort): PlatformPort {
    const state = internal.get(port)!;
    if (state.detached || state.channel.closed) throw dataCloneError("MessagePort in transfer list is already detached");
    state.detached = true;
    state.port.onmessage = null;
    state.channel.ends = state.channel.ends.filter((end) => end !== port);
    setRef(state);
    return state.port;
  }

  /**
   * A value and transfer list as they go on a platform port: unchanged unless the list has Node ports;
   * then an envelope with each port's platform port, and the value with the ports replaced by their places.
   */
  function encode(value: unknown, transferList: readonly unknown[] | undefined): EncodedMessage {
    const list = [...(transferList ?? [])];
    // The common case costs nothing: no walk of the value (a port in it but not in the list is cloned as a plain object, where Node throws).
    if (!list.some((item) => item instanceof NodeMessagePort)) return { data: value, transfer: list as Transferable[] };
    const sent = list.filter((item): item is NodeMessagePort => item instanceof NodeMessagePort);
    const data = replaceDeep(value, (item) => {
      if (!(item instanceof NodeMessagePort)) return item;
      const at = sent.indexOf(item);
      if (at < 0) throw dataCloneError("Object that needs transfer was found in message but not listed in transferList");
      return { [PORT_AT]: at };
    });
    const platformPorts = sent.map(detach);
    const transfer = [...list.filter((item) => !(item instanceof NodeMessagePort)), ...platformPorts] as Transferable[];
    return { data: { [ENVELOPE]: platformPorts, data }, transfer };
  }

  /** The value a platform port delivered, with Node ports where ports were sent. */
  function decode(data: unknown): unknown {
    if (!isPlainObject(data) || !Array.isArray(data[ENVELOPE])) return data;
    const ported = (data[ENVELOPE] as PlatformPort[]).map(adopt);
    return replaceDeep(data.data, (item) => (isPlainObject(item) && typeof item[PORT_AT] === "number" ? ported[item[PORT_AT]] : item));
  }

  /**
   * Node's synchronous receive, for the values that have arrived on the port and wait for a listener.
   * One still in flight (posted, not yet delivered by the platform as a task) is not seen: a thread
   * blocked in Atomics.wait receives nothing (no task runs), so pools that block and then poll
   * (piscina's and tinypool's atomics mode) must be run with it off.
   */
  function receiveMessageOnPort(port: unknown): { message: unknown } | undefined {
    const state = port instanceof NodeMessagePort ? internal.get(port) : undefined;
    if (!state) throw Object.assign(new TypeError('The "port" argument must be a MessagePort instance'), { code: "ERR_INVALID_ARG_TYPE" });
    return state.waiting.length > 0 ? { message: state.waiting.shift() } : undefined;
  }

  return { MessageChannel: NodeMessageChannel, MessagePort: NodeMessagePort, encode, decode, receiveMessageOnPort };
}

function dataCloneError(message: string): Error {
  return typeof DOMException === "function" ? new DOMException(message, "DataCloneError") : Object.assign(new Error(message), { name: "DataCloneError" });
}
