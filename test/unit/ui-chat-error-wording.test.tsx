// @vitest-environment happy-dom
// AI SDK errors in plain words (issue 20 point 6): the chat says what happened in a sentence and
// keeps the precise text one click away under "Details"; unknown errors are shown as they are.
import "../support/happy-dom-node-name";
import { afterEach, describe, expect, it } from "vitest";
import { ErrorText, plainError } from "../../src/ui/chat/error-wording";
import { MessageErrorView } from "../../src/ui/chat/message-view";
import { render, type Rendered } from "./ui-chat-render";

let view: Rendered | undefined;
afterEach(async () => view?.unmount());

describe("error wording", () => {
  it("words each known AI SDK error plainly", () => {
    expect(plainError("AI_InvalidToolInputError: Invalid input for tool read: Type validation failed")).toMatch(/^The model called a tool with input the tool does not accept/);
    expect(plainError("Model tried to call unavailable tool 'Bash'. Available tools: bash, read.")).toMatch(/^The model asked for a tool that is not available here/);
    expect(plainError("AI_JSONParseError: JSON parsing failed: Text: {. Error message: Unexpected end")).toMatch(/^Part of the reply could not be read/);
    expect(plainError("Failed to process successful response")).toMatch(/^The provider's answer broke off/);
    expect(plainError("AI_TypeValidationError: Type validation failed: Value: {}")).toMatch(/^The provider sent a reply in a shape/);
    expect(plainError("ENOENT: no such file")).toBeUndefined();
  });

  it("shows the plain sentence with the precise text under Details, and unknown text as it is", async () => {
    const precise = "Invalid input for tool read: filePath: expected string, received number";
    view = await render(<ErrorText text={precise} kind="AI_InvalidToolInputError" className="x" />);
    const details = view.container.querySelector("details")!;
    expect(view.container.textContent).toContain("The model called a tool with input the tool does not accept.");
    expect(details.querySelector("summary")?.textContent).toBe("Details");
    expect(details.querySelector("pre")?.textContent).toBe(`AI_InvalidToolInputError: ${precise}`);
    await view.unmount();
    view = await render(<ErrorText text="something else broke" className="x" />);
    expect(view.container.textContent).toBe("something else broke");
    expect(view.container.querySelector("details")).toBeNull();
    await view.unmount();
    view = await render(<MessageErrorView error={{ name: "AI_NoSuchToolError", message: "Model tried to call unavailable tool 'Grep'." }} />);
    expect(view.container.querySelector(".message-error-words")?.firstChild?.textContent).toMatch(/^The model asked for a tool that is not available here/);
    expect(view.container.querySelector("pre")?.textContent).toBe("AI_NoSuchToolError: Model tried to call unavailable tool 'Grep'.");
  });
});
