// MCP tools as agent tools: `<server>_<tool>` with the server's JSON schema and a description cut
// to a sane length; each call asks the "mcp" permission (pattern: the tool's name), runs with Stop
// and the server's timeout, and turns the result's text, images and embedded resources into the
// tool result (images as attachments, which reach vision models).
import { z } from "zod";
import { errorMessage, isAbortError } from "../../base";
import type { FileAttachment } from "../../storage";
import type { ToolDefinition, ToolResult } from "../tools/tool";
import type { McpCallResult, McpToolInfo } from "./mcp-connection";

/** Descriptions longer than this are cut: every request carries every tool's description. */
export const MCP_DESCRIPTION_MAX_CHARS = 1024;
/** Model APIs accept tool names of at most 64 characters from [A-Za-z0-9_-]. */
export const TOOL_NAME_MAX = 64;

export const MCP_PERMISSION = "mcp";

/** The name the model sees: `<server>_<tool>`, cleaned to what model APIs accept. */
export function mcpToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, TOOL_NAME_MAX);
}

export function truncateDescription(text: string | undefined, max = MCP_DESCRIPTION_MAX_CHARS): string {
  const clean = (text ?? "").trim();
  return clean.length <= max ? clean : `${clean.slice(0, max - 1).trimEnd()}…`;
}

/** The server's input schema as a JSON schema object (a missing or odd one becomes an empty object schema). */
function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!schema || typeof schema !== "object" || schema.type !== "object") return { type: "object", properties: {} };
  const copy: Record<string, unknown> = { ...schema };
  delete copy.$schema;
  if (!copy.properties) copy.properties = {};
  return copy;
}

/** The server that runs a call: the hub reconnects it when needed. */
export interface McpCaller {
  call(tool: string, args: Record<string, unknown>, options: { signal: AbortSignal }): Promise<McpCallResult>;
}

type Content = { type: string; [key: string]: unknown };

/** Text for the model, attachments for images, and what the chat shows. */
export function convertMcpResult(result: McpCallResult, toolName: string): { output: string; attachments: FileAttachment[]; resources: Array<{ uri: string; mimeType?: string }> } {
  const texts: string[] = [];
  const attachments: FileAttachment[] = [];
  const resources: Array<{ uri: string; mimeType?: string }> = [];
  const content = "content" in result && Array.isArray(result.content) ? (result.content as Content[]) : [];
  for (const [index, item] of content.entries()) {
    if (item.type === "text" && typeof item.text === "string") texts.push(item.text);
    else if ((item.type === "image" || item.type === "audio") && typeof item.data === "string" && typeof item.mimeType === "string") {
      const filename = `${toolName}-${index + 1}.${item.mimeType.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin"}`;
      if (item.type === "image") {
        attachments.push({ mime: item.mimeType, filename, url: `data:${item.mimeType};base64,${item.data}` });
        texts.push(`[image ${filename} (${item.mimeType}) attached]`);
      } else texts.push(`[audio ${filename} (${item.mimeType}) returned; audio is not passed on]`);
    } else if (item.type === "resource" && item.resource && typeof item.resource === "object") {
      const resource = item.resource as { uri?: unknown; mimeType?: unknown; text?: unknown; blob?: unknown };
      const uri = String(resource.uri ?? "");
      const mimeType = typeof resource.mimeType === "string" ? resource.mimeType : undefined;
      resources.push({ uri, ...(mimeType && { mimeType }) });
      if (typeof resource.text === "string") texts.push(`<resource uri="${uri}"${mimeType ? ` mimeType="${mimeType}"` : ""}>\n${resource.text}\n</resource>`);
      else if (typeof resource.blob === "string" && mimeType?.startsWith("image/")) {
        attachments.push({ mime: mimeType, filename: uri.split("/").pop() || `${toolName}-${index + 1}`, url: `data:${mimeType};base64,${resource.blob}` });
        texts.push(`[resource ${uri} (${mimeType}) attached as an image]`);
      } else texts.push(`[resource ${uri}${mimeType ? ` (${mimeType})` : ""}: binary content not shown]`);
    } else if (item.type === "resource_link" && typeof item.uri === "string") {
      resources.push({ uri: item.uri, ...(typeof item.mimeType === "string" && { mimeType: item.mimeType }) });
      texts.push(`[resource link ${item.uri}${typeof item.name === "string" ? ` (${item.name})` : ""}]`);
    } else texts.push(`[${item.type} content not supported]`);
  }
  if (content.length === 0 && "structuredContent" in result && result.structuredContent !== undefined) texts.push(JSON.stringify(result.structuredContent, null, 2));
  if (content.length === 0 && "toolResult" in result) texts.push(JSON.stringify(result.toolResult, null, 2));
  return { output: texts.join("\n\n"), attachments, resources };
}

/** An agent tool for one MCP tool of `server`. */
export function mcpTool(server: string, info: McpToolInfo, caller: McpCaller): ToolDefinition {
  const id = mcpToolName(server, info.name);
  const description = truncateDescription(info.description) || `The ${info.name} tool of the ${server} MCP server.`;
  return {
    id,
    description,
    // The server validates its own arguments; the wrapper only checks there is an object.
    parameters: z.record(z.string(), z.unknown()),
    inputJsonSchema: objectSchema(info.inputSchema),
    permission: MCP_PERMISSION,
    async execute(args, context): Promise<ToolResult> {
      await context.ask({ permission: MCP_PERMISSION, patterns: [id], always: [id], metadata: { server, tool: info.name, input: args } });
      let result: McpCallResult;
      try {
        result = await caller.call(info.name, args as Record<string, unknown>, { signal: context.abort });
      } catch (error) {
        if (context.abort.aborted || isAbortError(error)) throw error;
        throw new Error(`The ${server} MCP server failed on ${info.name}: ${errorMessage(error)}`, { cause: error });
      }
      const converted = convertMcpResult(result, id);
      const isError = "isError" in result && result.isError === true;
      const metadata = { mcp: { server, tool: info.name, isError, resources: converted.resources } };
      if (isError) throw new Error(`The ${server} MCP tool ${info.name} returned an error: ${converted.output || "(no message)"}`);
      return { title: `${server} · ${info.name}`, output: converted.output || "(the tool returned no content)", metadata, ...(converted.attachments.length > 0 && { attachments: converted.attachments }) };
    },
  };
}
