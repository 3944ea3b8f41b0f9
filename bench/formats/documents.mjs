// One-document traces of eight formats, pretty-printed as the tools write them, for the
// bench's per-format rows (bench/formats/index.mjs) and memory tests. Each item is one
// call and its result (about 1.5 KB with its padding, or more with <pad-kilobytes> of text
// in each padded field); the output is the same for the same arguments. By hand:
//   node bench/formats/documents.mjs <format> <out-file> <megabytes> [<pad-kilobytes>]
// Formats: gemini-cli, google-adk, atif, openhands, langfuse, claude-code-export, inspect, mcp.
import { closeSync, openSync, writeSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LOREM = 'lorem ipsum dolor sit amet, consectetur adipiscing elit; ';
const ts = (i) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
const indent = (value, depth) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${'  '.repeat(depth)}`);

/**
 * Per format: the document's opening, its items (a pair of a call and its result per i),
 * and its closing; `perItem` calls per item (1 unless said), `runPerItem` when each item is
 * a run of its own (Inspect's samples; otherwise the document is one run).
 */
const specs = (PAD) => ({
  'gemini-cli': {
    open: '{\n  "sessionId": "s-1",\n  "projectHash": "h",\n  "startTime": "2026-01-01T00:00:00.000Z",\n  "messages": [',
    items: (i) => [
      { id: `u${i}`, timestamp: ts(i), type: 'user', content: `please look ${i} ${PAD}` },
      { id: `g${i}`, timestamp: ts(i), type: 'gemini', content: '', toolCalls: [{ id: `c${i}`, name: 'read_file', args: { path: `f${i}.txt` }, status: 'success', timestamp: ts(i), result: [{ functionResponse: { id: `c${i}`, name: 'read_file', response: { output: PAD } } }] }] },
    ],
    close: ']\n}\n',
    depth: 2,
  },
  'google-adk': {
    open: '{\n  "id": "s-1",\n  "app_name": "a",\n  "user_id": "u",\n  "state": {},\n  "events": [',
    items: (i) => [
      { id: `e${i}a`, invocation_id: `inv${i}`, author: 'agent', timestamp: 1767225600 + i, content: { role: 'model', parts: [{ text: PAD }, { function_call: { id: `c${i}`, name: 'search', args: { q: `q${i}` } } }] } },
      { id: `e${i}b`, invocation_id: `inv${i}`, author: 'agent', timestamp: 1767225600 + i, content: { role: 'user', parts: [{ function_response: { id: `c${i}`, name: 'search', response: { result: PAD } } }] } },
    ],
    close: ']\n}\n',
    depth: 2,
  },
  atif: {
    open: '{\n  "schema_version": "ATIF-v1.4",\n  "session_id": "s-1",\n  "agent": {"name": "a", "version": "1", "tool_definitions": [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]},\n  "steps": [',
    items: (i) => [{ step_id: i + 1, timestamp: ts(i), source: 'agent', message: PAD, tool_calls: [{ tool_call_id: `c${i}`, function_name: 'bash', arguments: { command: `ls ${i}` } }], observation: { results: [{ source_call_id: `c${i}`, content: PAD }] } }],
    close: ']\n}\n',
    depth: 2,
  },
  openhands: {
    open: '[',
    items: (i) => [
      { id: 2 * i, timestamp: ts(i), source: 'agent', message: PAD, action: 'run', args: { command: `ls ${i}` }, tool_call_metadata: { function_name: 'execute_bash', tool_call_id: `c${i}` } },
      { id: 2 * i + 1, timestamp: ts(i), source: 'agent', message: 'ran', cause: 2 * i, observation: 'run', content: PAD, extras: { exit_code: 0 }, tool_call_metadata: { function_name: 'execute_bash', tool_call_id: `c${i}` } },
    ],
    close: ']\n',
    depth: 1,
  },
  langfuse: {
    open: '{\n  "trace": {"id": "t-1", "projectId": "p", "name": "run"},\n  "observations": [',
    items: (i) => [
      { id: `o${i}`, traceId: 't-1', type: 'TOOL', name: 'search', startTime: ts(i), endTime: ts(i), input: { q: `q${i}` }, output: PAD, level: 'DEFAULT' },
    ],
    close: ']\n}\n',
    depth: 2,
  },
  'claude-code-export': {
    open: '{\n  "loglines": [',
    items: (i) => [
      { type: 'assistant', sessionId: 's-1', uuid: `a${i}`, timestamp: ts(i), message: { role: 'assistant', content: [{ type: 'text', text: PAD }, { type: 'tool_use', id: `c${i}`, name: 'Read', input: { file_path: `f${i}` } }] } },
      { type: 'user', sessionId: 's-1', uuid: `r${i}`, timestamp: ts(i), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `c${i}`, content: PAD }] } },
    ],
    close: ']\n}\n',
    depth: 2,
  },
  inspect: {
    open: '{\n  "version": 2,\n  "status": "success",\n  "eval": {"task": "t", "model": "m"},\n  "samples": [',
    // One sample of 20 calls per item.
    items: (i) => [{ id: i + 1, epoch: 1, messages: Array.from({ length: 20 }, (_, k) => [{ role: 'assistant', content: PAD, tool_calls: [{ id: `c${i}-${k}`, function: 'bash', arguments: { cmd: `ls ${k}` } }] }, { role: 'tool', tool_call_id: `c${i}-${k}`, function: 'bash', content: PAD }]).flat(), events: [] }],
    close: ']\n}\n',
    depth: 2,
    perItem: 20,
    runPerItem: true,
  },
  mcp: {
    open: '[',
    items: (i) => [
      { jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: 'echo', arguments: { text: `${i} ${PAD}` } } },
      { jsonrpc: '2.0', id: i + 1, result: { content: [{ type: 'text', text: PAD }] } },
    ],
    close: ']\n',
    depth: 1,
  },
});

export const DOCUMENT_FORMATS = Object.keys(specs(''));

/**
 * Writes one `format` document to `path` until it holds at least `bytes` bytes (whole items);
 * returns what it wrote: bytes, runs, calls and results (every call has its result).
 */
export function writeDocument(format, path, bytes, padKb = 0) {
  const PAD = padKb > 0 ? LOREM.repeat(Math.ceil((padKb * 1024) / LOREM.length)).slice(0, padKb * 1024) : LOREM.repeat(12);
  const spec = specs(PAD)[format];
  if (!spec) throw new Error(`format must be one of ${DOCUMENT_FORMATS.join(', ')}`);
  const fd = openSync(path, 'w');
  let size = 0;
  let pending = [];
  let pendingBytes = 0;
  const flush = () => {
    writeSync(fd, pending.join(''));
    pending = [];
    pendingBytes = 0;
  };
  const write = (text) => {
    pending.push(text);
    pendingBytes += text.length;
    size += Buffer.byteLength(text);
    if (pendingBytes > 1 << 20) flush();
  };
  write(spec.open);
  let items = 0;
  for (; size < bytes; items += 1) {
    for (const [k, item] of spec.items(items).entries()) write(`${items === 0 && k === 0 ? '' : ','}\n${'  '.repeat(spec.depth)}${indent(item, spec.depth)}`);
  }
  write(`\n${'  '.repeat(spec.depth - 1)}${spec.close}`);
  flush();
  closeSync(fd);
  const calls = items * (spec.perItem ?? 1);
  return { format, bytes: size, runs: spec.runPerItem ? items : 1, calls, results: calls };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [format, out, megabytes, padKb] = process.argv.slice(2);
  if (!DOCUMENT_FORMATS.includes(format) || !out || !(Number(megabytes) > 0)) {
    console.error(`usage: node bench/formats/documents.mjs <${DOCUMENT_FORMATS.join('|')}> <out-file> <megabytes> [<pad-kilobytes>]`);
    process.exit(2);
  }
  console.log(JSON.stringify(writeDocument(format, out, Number(megabytes) * 1024 * 1024, Number(padKb ?? 0))));
}
