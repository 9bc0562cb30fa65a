// node:worker_threads' MessageChannel and MessagePort with Node's shape (an EventEmitter:
// on('message') gets the value, not an event; close() emits 'close' on both ends; a port listening
// for messages keeps the program running until it is closed or unref()'d, as in Node), over the
// platform's MessageChannel, which does the structured cloning and the delivery as a task.
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

export function createMessagePorts(loop: EventLoop) {
  interface Channel {
    closed: boolean;
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
  }
  const internal = new WeakMap<NodeMessagePort, PortState>();

  const setRef = (state: PortState) => {
    const should = (state.pinned || (state.listening && state.wantRef)) && !state.channel.closed;
    if (should === state.refed) return;
    state.refed = should;
    if (should) loop.ref();
    else loop.unref();
  };

  class NodeMessagePort extends EventEmitter {
    constructor(port: PlatformPort, channel: Channel, key: symbol) {
      if (key !== CONSTRUCT) throw new TypeError("Illegal constructor");
      super();
      const state: PortState = { port, channel, refed: false, listening: false, wantRef: true, pinned: false };
      internal.set(this, state);
      // The platform port of a MessageChannel made in a Node process (the in-process tests) would keep that process alive; the program's refs decide.
      port.unref?.();
      port.onmessage = (event: MessageEvent) => loop.guard(() => this.emit("message", event.data));
      this.on("newListener", (name: string) => {
        if (name !== "message") return;
        state.listening = true;
        setRef(state);
      });
      this.on("removeListener", (name: string) => {
        if (name !== "message" || this.listenerCount("message") > 0) return;
        state.listening = false;
        setRef(state);
      });
    }

    postMessage(value: unknown, transferList?: readonly unknown[]): void {
      const state = internal.get(this)!;
      if (state.channel.closed) return;
      if (transferList?.some((item) => item instanceof NodeMessagePort)) {
        throw Object.assign(new TypeError("Transferring a MessagePort (in postMessage's transfer list) is not available in the browser runtime yet"), { code: "ERR_WEBCODE_NOT_YET" });
      }
      state.port.postMessage(value, (transferList ?? []) as Transferable[]);
    }

    start(): void {}

    close(): void {
      const state = internal.get(this)!;
      if (state.channel.closed) return;
      state.channel.closed = true;
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

  return { MessageChannel: NodeMessageChannel, MessagePort: NodeMessagePort };
}
