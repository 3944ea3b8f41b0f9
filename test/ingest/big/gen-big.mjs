// Writes big, deterministic trace files of the OTLP and OpenAI formats (for the memory tests
// and the bench): OTLP JSON lines (collector file exporter), one OTLP JSON document, a Jaeger
// document, OpenAI JSONL (one conversation per line), an OpenAI trajectory list and an Agents
// run state. Every run has a catalog of TOOLS; each turn is one model request and one tool call
// with its result. Planted, and counted here (the truth the tests assert, counted while
// writing, not by the tool): every 7th call is to a tool not in the catalog ("unknown-tool"),
// every 11th call gets no result (an orphan), every 5th result is an error.
// Usage: node test/ingest/big/gen-big.mjs <form> <out> <megabytes>
import { closeSync, openSync, writeSync } from 'node:fs';

export const FORMS = ['otlp-lines', 'otlp-document', 'jaeger-document', 'openai-lines', 'openai-list', 'openai-run-state', 'langfuse-list'];
const TOOLS = ['read_file', 'grep', 'web_search', 'run_tests'];
const TURNS = 20;
const PAD = 'lorem ipsum dolor sit amet '.repeat(12);

/** One call's plan, from its global index: the tool, whether it is answered and fails. */
function plan(n) {
  const unknown = n % 7 === 6;
  return { tool: unknown ? 'drop_database' : TOOLS[n % TOOLS.length], unknown, orphan: n % 11 === 10, error: n % 5 === 4 };
}

class Out {
  constructor(path) {
    this.fd = openSync(path, 'w');
    this.parts = [];
    this.size = 0;
    this.bytes = 0;
  }
  write(text) {
    this.parts.push(text);
    this.size += text.length;
    this.bytes += Buffer.byteLength(text);
    if (this.size >= 1 << 20) this.flush();
  }
  flush() {
    writeSync(this.fd, this.parts.join(''));
    this.parts = [];
    this.size = 0;
  }
  close() {
    this.flush();
    closeSync(this.fd);
  }
}

const hex = (n, width) => n.toString(16).padStart(width, '0');
const attr = (key, value) => ({ key, value: typeof value === 'number' ? { intValue: String(value) } : { stringValue: value } });
const catalogJson = JSON.stringify(TOOLS.map((name) => ({ type: 'function', name, description: `the ${name} tool`, parameters: { type: 'object', properties: { q: { type: 'string' } } } })));

/** The spans of one trace (OTLP shape): a chat span per turn (the first with the catalog), an execute_tool span per call. */
function otlpTrace(t, counts) {
  const traceId = hex(t + 1, 32);
  const spans = [];
  let ns = 1_780_000_000_000_000_000n + BigInt(t) * 1_000_000_000_000n;
  for (let turn = 0; turn < TURNS; turn += 1) {
    const n = counts.calls;
    const p = plan(n);
    const chatId = hex(t * 1000 + turn * 2 + 1, 16);
    const attrs = [attr('gen_ai.operation.name', 'chat'), attr('gen_ai.request.model', 'gpt-test')];
    if (turn === 0) attrs.push(attr('gen_ai.tool.definitions', catalogJson));
    spans.push({ traceId, spanId: chatId, name: 'chat gpt-test', kind: 3, startTimeUnixNano: String(ns), endTimeUnixNano: String(ns + 1_000_000n), attributes: attrs, status: {} });
    ns += 2_000_000n;
    const callId = `call_${t}_${turn}`;
    const toolAttrs = [attr('gen_ai.operation.name', 'execute_tool'), attr('gen_ai.tool.name', p.tool), attr('gen_ai.tool.call.id', callId), attr('gen_ai.tool.call.arguments', JSON.stringify({ q: `${PAD}${n}` }))];
    if (!p.orphan) toolAttrs.push(attr('gen_ai.tool.call.result', p.error ? JSON.stringify({ error: 'backend unavailable' }) : `${PAD} result ${n}`));
    const span = { traceId, spanId: hex(t * 1000 + turn * 2 + 2, 16), name: `execute_tool ${p.tool}`, kind: 1, startTimeUnixNano: String(ns), attributes: toolAttrs, status: p.error ? { code: 2, message: 'backend unavailable' } : {} };
    // An orphan's span never ended (no end time): a call without a result.
    if (!p.orphan) span.endTimeUnixNano = String(ns + 3_000_000n);
    spans.push(span);
    ns += 4_000_000n;
    count(counts, p);
  }
  return spans;
}

function count(counts, p) {
  counts.calls += 1;
  if (p.unknown) counts.unknown += 1;
  if (p.orphan) counts.orphans += 1;
  else {
    counts.results += 1;
    if (p.error) counts.errors += 1;
  }
}

const batch = (spans) => ({ resource: { attributes: [attr('service.name', 'agent-under-test')] }, scopeSpans: [{ scope: { name: 'gen-big' }, spans }] });

/** Jaeger's shape of the same trace. */
function jaegerTrace(t, counts) {
  const spans = otlpTrace(t, counts).map((s) => {
    const tags = s.attributes.map((a) => ({ key: a.key, type: 'string', value: a.value.stringValue ?? a.value.intValue }));
    if (s.status.code === 2) tags.push({ key: 'otel.status_code', type: 'string', value: 'ERROR' });
    const start = Number(BigInt(s.startTimeUnixNano) / 1000n);
    const out = { traceID: s.traceId, spanID: s.spanId, operationName: s.name, references: [], startTime: start, tags, logs: [], processID: 'p1' };
    // Jaeger has no "never ended": an orphan's span is one with no duration field.
    if (s.endTimeUnixNano !== undefined) out.duration = Number((BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1000n);
    return out;
  });
  return { traceID: hex(t + 1, 32), spans, processes: { p1: { serviceName: 'agent-under-test', tags: [] } } };
}

/** One OpenAI conversation: the catalog, a user message, then per turn an assistant call and (unless orphaned) its tool message. */
function conversation(t, counts) {
  const messages = [{ role: 'system', content: 'You are a test agent.' }, { role: 'user', content: `task ${t}: ${PAD}` }];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const p = plan(counts.calls);
    const id = `call_${t}_${turn}`;
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: p.tool, arguments: JSON.stringify({ q: `${PAD}${counts.calls}` }) } }] });
    if (!p.orphan) messages.push({ role: 'tool', tool_call_id: id, content: p.error ? JSON.stringify({ error: 'backend unavailable' }) : `${PAD} result ${counts.calls}` });
    count(counts, p);
  }
  return { id: `traj-${t}`, messages, tools: TOOLS.map((name) => ({ type: 'function', function: { name, parameters: { type: 'object', properties: { q: { type: 'string' } } } } })) };
}

/**
 * One Langfuse export ({trace, observations}): a TOOL observation per call, with its
 * call id in the OTel attributes; a failed one (level ERROR) has an error object as
 * its output. A TOOL observation always gives a result, so there are no orphans.
 */
function langfuseExport(t, counts) {
  const ms = Date.UTC(2026, 0, 1) + t * 60_000;
  const observations = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const p = { ...plan(counts.calls), orphan: false };
    const at = (k) => new Date(ms + turn * 2000 + k).toISOString();
    const attributes = { 'gen_ai.tool.call.id': `call_${t}_${turn}`, 'gen_ai.tool.name': p.tool };
    observations.push({ id: `o${t}_${turn}`, traceId: `t-${t}`, type: 'TOOL', name: p.tool, startTime: at(0), endTime: at(1000), input: { q: `${PAD}${counts.calls}` }, output: p.error ? JSON.stringify({ error: 'backend unavailable' }) : `${PAD} result ${counts.calls}`, level: p.error ? 'ERROR' : 'DEFAULT', metadata: { attributes } });
    count(counts, p);
  }
  return { trace: { id: `t-${t}`, projectId: 'p', name: `run ${t}` }, observations };
}

/** Responses API items of one turn, for a run state's generated_items. */
function runStateItems(t, counts) {
  const items = [];
  for (let turn = 0; turn < TURNS; turn += 1) {
    const p = plan(counts.calls);
    const id = `call_${t}_${turn}`;
    items.push({ type: 'tool_call_item', raw_item: { type: 'function_call', call_id: id, name: p.tool, arguments: JSON.stringify({ q: `${PAD}${counts.calls}` }) } });
    if (!p.orphan) items.push({ type: 'tool_call_output_item', raw_item: { type: 'function_call_output', call_id: id, output: p.error ? JSON.stringify({ error: 'backend unavailable' }) : `${PAD} result ${counts.calls}` } });
    count(counts, p);
  }
  return items;
}

/**
 * Writes `form` to `path` until it holds at least `megabytes` MB (whole runs only).
 * Returns the truth: runs, calls, results (answered calls), errors, unknown-tool calls, orphans, lines, bytes.
 */
export function generate(form, path, megabytes) {
  if (!FORMS.includes(form)) throw new Error(`form must be one of ${FORMS.join(', ')}`);
  const target = megabytes * 1e6;
  const out = new Out(path);
  const counts = { runs: 0, calls: 0, results: 0, errors: 0, unknown: 0, orphans: 0, lines: 0 };
  const line = (text) => {
    out.write(`${text}\n`);
    counts.lines += 1;
  };
  if (form === 'otlp-lines') {
    // Two traces in flight at a time, each spread over two batch lines (as a batching exporter writes them).
    for (let t = 0; out.bytes < target; t += 2) {
      const a = otlpTrace(t, counts);
      const b = otlpTrace(t + 1, counts);
      const half = a.length / 2;
      line(JSON.stringify({ resourceSpans: [batch([...a.slice(0, half), ...b.slice(0, half)])] }));
      line(JSON.stringify({ resourceSpans: [batch([...a.slice(half), ...b.slice(half)])] }));
      counts.runs += 2;
    }
  } else if (form === 'otlp-document' || form === 'jaeger-document') {
    const key = form === 'otlp-document' ? 'resourceSpans' : 'data';
    out.write(`{"${key}": [\n`);
    for (let t = 0; out.bytes < target; t += 1) {
      const value = form === 'otlp-document' ? batch(otlpTrace(t, counts)) : jaegerTrace(t, counts);
      out.write(`${t === 0 ? '' : ',\n'}${JSON.stringify(value)}`);
      counts.runs += 1;
    }
    out.write('\n]}\n');
  } else if (form === 'langfuse-list') {
    out.write('[\n');
    for (let t = 0; out.bytes < target; t += 1) {
      out.write(`${t === 0 ? '' : ',\n'}${JSON.stringify(langfuseExport(t, counts), null, 2)}`);
      counts.runs += 1;
    }
    out.write('\n]\n');
  } else if (form === 'openai-lines') {
    for (let t = 0; out.bytes < target; t += 1) {
      line(JSON.stringify(conversation(t, counts)));
      counts.runs += 1;
    }
  } else if (form === 'openai-list') {
    out.write('[\n');
    for (let t = 0; out.bytes < target; t += 1) {
      out.write(`${t === 0 ? '' : ',\n'}${JSON.stringify(conversation(t, counts))}`);
      counts.runs += 1;
    }
    out.write('\n]\n');
  } else {
    out.write('{"$schemaVersion": "1.4", "current_turn": 1, "conversation_id": "conv-big", "original_input": "start", "generated_items": [\n');
    for (let t = 0; out.bytes < target; t += 1) {
      const items = runStateItems(t, counts).map((item) => JSON.stringify(item));
      out.write(`${t === 0 ? '' : ',\n'}${items.join(',\n')}`);
    }
    counts.runs = 1;
    out.write('\n]}\n');
  }
  out.close();
  return { ...counts, bytes: out.bytes };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [form, path, mb] = process.argv.slice(2);
  console.log(JSON.stringify(generate(form, path, Number(mb ?? 100))));
}
