// MCP servers from the browser (issue 14): configs, connections through @ai-sdk/mcp, the Test
// probe, tools as agent tools and the page-wide hub.
export * from "./server-config";
export { connectMcp, httpStatusOf, MCP_CONNECT_TIMEOUT_MS, type McpCallResult, type McpConnection, type McpConnectOptions, type McpToolInfo } from "./mcp-connection";
export { mcpCorsAdvice, probeMcpServer, type McpProbeOptions, type McpProbeResult } from "./mcp-probe";
export { MCP_DESCRIPTION_MAX_CHARS, MCP_PERMISSION, convertMcpResult, mcpTool, mcpToolName, truncateDescription } from "./mcp-tools";
export { McpHub, type McpHubOptions, type McpHubState, type McpServerStatus } from "./mcp-hub";
export { MCP_CONFIG_FILES, readWorkspaceServers, serverNameFrom, type DeclaredServer } from "./workspace-servers";
export { McpSignInRequiredError, createMcpOAuthProvider, signInMcp, type AuthorizationCallback, type McpOAuthStore, type SignInOptions } from "./oauth";
export { MCP_INSTRUCTIONS_MAX_CHARS, formatServerInstructions } from "./mcp-instructions";
