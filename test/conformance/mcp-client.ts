// The client side of the MCP conformance suite (@modelcontextprotocol/conformance): the suite
// starts a test server for a scenario and runs this with the server's URL last and the scenario in
// MCP_CONFORMANCE_SCENARIO. It drives McpManager as a session would: connect, list the tools, call
// each with arguments made from its schema, and close. Exit 0 when the server was reached.
import { McpManager } from '../../src/mcp/manager.ts';
import { entry, NO_APPROVALS } from '../mcp/helpers.ts';

const url = process.argv[process.argv.length - 1];
const mcp = new McpManager({
  config: { servers: [entry('conformance', { type: 'http', url })], warnings: [] },
  approvals: NO_APPROVALS,
  env: process.env,
  cwd: process.cwd(),
  clientInfo: { name: 'assistant', version: '0.1.0' },
  limits: { startTimeoutMs: 20_000, toolTimeoutMs: 20_000 },
});

/** Arguments for a tool from its JSON Schema: numbers count up, strings say "test". */
function argumentsFor(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const props = (schema?.properties ?? {}) as Record<string, { type?: string }>;
  let n = 2;
  return Object.fromEntries(
    Object.entries(props).map(([k, p]) => [k, p.type === 'number' || p.type === 'integer' ? n++ : p.type === 'boolean' ? true : 'test']),
  );
}

mcp.start();
await mcp.whenSettled();
const status = mcp.statuses()[0];
if (status.state !== 'connected') {
  process.stderr.write(`not connected: ${status.error}\n`);
  await mcp.close();
  process.exit(1);
}
for (const tool of mcp.tools()) {
  const r = await mcp.callTool(tool.name, argumentsFor(tool.inputJsonSchema));
  process.stdout.write(`${tool.name}: ${r.isError ? 'error: ' : ''}${r.output}\n`);
}
await mcp.close();
