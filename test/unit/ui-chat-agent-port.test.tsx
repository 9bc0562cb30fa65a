// The chat UI codes against ChatAgent; the real facade must satisfy it (checked by the compiler).
import { describe, expectTypeOf, it } from "vitest";
import type { Agent } from "../../src/agent/agent";
import type { AgentEvents as RealEvents } from "../../src/agent/session/events";
import type { AgentEvents, ChatAgent } from "../../src/ui/chat/agent-port";

describe("agent port", () => {
  it("is satisfied by the agent facade", () => {
    expectTypeOf<Agent>().toMatchTypeOf<ChatAgent>();
  });

  it("mirrors the agent's event payloads both ways", () => {
    expectTypeOf<RealEvents>().toMatchTypeOf<AgentEvents>();
    expectTypeOf<AgentEvents>().toMatchTypeOf<RealEvents>();
  });
});
