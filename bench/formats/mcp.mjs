// MCP JSON-RPC message logs (JSONL, one message a line, as an MCP proxy logs a client's
// connections one after another): per connection initialize and its response, a
// tools/list and its result (the catalog), then tools/call requests each with its
// response (about 1 in 25 a result with isError, 1 in 100 a -32602 error). JSON-RPC ids
// start over with each connection. Records: the catalog, one call per request, one
// result per response; one run per connection.
import { pick, prose } from './write.mjs';

const TOOLS = ['get_weather', 'search_docs', 'read_resource', 'run_query'];
const CATALOG = TOOLS.map((name) => ({ name, description: `The ${name} tool`, inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }));

export const mcp = {
  id: 'mcp',
  baseline: 'lines',
  session(rand, index, counts) {
    const line = (message) => `${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`;
    let text = line({ id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench-client', version: `1.${index}` } } });
    text += line({ id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bench-server', version: '1.0.0' } } });
    text += line({ id: 1, method: 'tools/list' });
    text += line({ id: 1, result: { tools: CATALOG } });
    counts.lines += 4;
    counts.records += 1;
    const calls = 20 + Math.floor(rand() * 60);
    for (let c = 0; c < calls; c += 1) {
      const id = c + 2;
      text += line({ id, method: 'tools/call', params: { name: pick(rand, TOOLS), arguments: { q: prose(rand, 40) } } });
      const roll = rand();
      if (roll < 0.01) text += line({ id, error: { code: -32602, message: `Invalid arguments: ${prose(rand, 30)}` } });
      else text += line({ id, result: { content: [{ type: 'text', text: prose(rand, 400 + Math.floor(rand() * 800)) }], isError: roll < 0.05 } });
      counts.lines += 2;
      counts.records += 2;
      counts.calls += 1;
      counts.results += 1;
      if (roll < 0.05) counts.errors += 1;
    }
    return text;
  },
};
