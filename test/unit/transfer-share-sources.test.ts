// Sources travel with a shared session (links kept, shown by the viewer); provider metadata
// (signatures, encrypted reasoning) never does.
import { describe, expect, it } from "vitest";
import { RECORD_VERSION, type PartRecord } from "../../src/storage";
import { decodeShareLink, encodeShareLink, shareToRecords } from "../../src/transfer";
import { fixedShareSource } from "../fixtures/share-source";

function part(id: string, rest: object): PartRecord {
  return { v: RECORD_VERSION, id, sessionId: "ses_fixed", messageId: "msg_2", ...rest } as PartRecord;
}

describe("sources in a share", () => {
  it("keeps the answer's sources and leaves provider metadata out", () => {
    const source = fixedShareSource();
    source.parts.push(
      part("prt_src", { type: "source", sourceType: "url", url: "https://vite.dev/blog/announcing-vite8", title: "Announcing Vite 8" }),
      part("prt_sig", { type: "text", text: "Signed answer.", providerMetadata: { google: { thoughtSignature: "secret-signature" } } }),
    );
    const { fragment } = encodeShareLink(source, { now: 1_700_000_200_000 });
    expect(fragment).toBeDefined();
    const restored = decodeShareLink(fragment!);
    expect(restored.droppedParts).toBe(0);
    const sources = restored.envelope.parts.filter((p) => p.type === "source");
    expect(sources).toEqual([expect.objectContaining({ type: "source", sourceType: "url", url: "https://vite.dev/blog/announcing-vite8", title: "Announcing Vite 8" })]);
    expect(JSON.stringify(restored.envelope)).not.toContain("secret-signature");
    const records = shareToRecords(restored.envelope, "ws_new", "link", 1_700_000_300_000);
    expect(records.parts.filter((p) => p.type === "source")).toHaveLength(1);
  });
});
