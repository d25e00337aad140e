/**
 * The MCP SDK's client side, in one module that is only ever loaded with `import()` (loadSdk in
 * mcp/connection.ts): the bundler puts it and the SDK in a chunk of their own, so a session with
 * no MCP server never reads them. Only client entry points: the SDK's server half pulls in
 * express and hono.
 */
export { Client } from '@modelcontextprotocol/sdk/client/index.js';
export { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
export { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
export { CallToolResultSchema, McpError, ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { GroupStdioTransport } from './stdio-transport.ts';

GroupStdioTransport.validate = (value) => JSONRPCMessageSchema.parse(value);
export { GroupStdioTransport };
