import { randomBytes, randomUUID } from 'node:crypto';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { context, trace, SpanKind, type Span } from '@opentelemetry/api';
import { strToU8, zipSync } from 'fflate';
import { otlpJsonLine } from '../../ingest/otel/sdk-export.js';

/**
 * One agent suite of three scenarios, written afresh on every call as a live suite
 * writes it: new run, session, trace, span, sample and call ids, timestamped file
 * names, and (`order`) the scenarios in another order. The agent behaves the same
 * each time unless `regression` adds a call that never gets a result (an orphan) to
 * the checkout scenario: the very call the refund scenario already leaves orphaned.
 */
export interface Step {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  /** The result's text; null: the call never gets a result. */
  readonly result: string | null;
  readonly error?: boolean;
}

export interface Scenario {
  readonly name: string;
  readonly prompt: string;
  readonly steps: readonly Step[];
}

const ORPHAN: Step = { tool: 'fetch_page', args: { url: 'https://shop.example/orders/7' }, result: null };

export const SUITE: readonly Scenario[] = [
  {
    name: 'checkout',
    prompt: 'Buy the red shoes in size 42.',
    steps: [
      { tool: 'search_products', args: { q: 'red shoes' }, result: '[{"sku":"A1"}]' },
      { tool: 'fetch_page', args: { url: 'https://shop.example/shoes/A1' }, result: '<h1>Red shoes</h1>' },
      { tool: 'add_to_cart', args: { sku: 'A1', size: 42 }, result: 'ok' },
      { tool: 'pay', args: { method: 'card' }, result: 'payment failed', error: true },
    ],
  },
  { name: 'refund', prompt: 'Refund order 7.', steps: [ORPHAN, { tool: 'refund', args: { order: 7 }, result: 'done' }] },
  {
    name: 'tracking',
    prompt: 'Why is my parcel late?',
    steps: [1, 2, 3].map(() => ({ tool: 'track', args: { id: 'P9' }, result: 'delayed' })),
  },
];

export const TOOLS = ['search_products', 'add_to_cart', 'pay', 'fetch_page', 'refund', 'track'];

export interface SuiteRun {
  readonly order: 'forward' | 'reversed';
  readonly regression: boolean;
}

/** The suite's scenarios as this run runs them. */
export function scenarios(run: SuiteRun): Scenario[] {
  const list = SUITE.map((s) => (run.regression && s.name === 'checkout' ? { ...s, steps: [...s.steps.slice(0, 3), ORPHAN, ...s.steps.slice(3)] } : s));
  return run.order === 'reversed' ? list.reverse() : list;
}

/** A time stamp as file names carry it, different on each call. */
let clock = Date.UTC(2026, 0, 5, 10, 11, 12);
export function stamp(): { iso: string; compact: string; ms: number } {
  clock += 61_000 + Math.floor(Math.random() * 100_000);
  const iso = new Date(clock).toISOString();
  return { iso, compact: iso.replace(/[-:]/g, '').replace(/\.\d+/, ''), ms: clock };
}

const callId = (prefix: string) => `${prefix}${randomBytes(12).toString('base64url')}`;

/** The native JSONL: one file `traces/suite-<time>.jsonl`, a `run_name` on each run's records. */
export function nativeSuite(run: SuiteRun): Record<string, string> {
  const t = stamp();
  const lines: unknown[] = [];
  let ts = t.ms;
  for (const s of scenarios(run)) {
    const run_id = randomUUID();
    lines.push({ type: 'catalog', run_id, run_name: s.name, catalog_names: TOOLS });
    lines.push({ ts: new Date((ts += 7)).toISOString(), run_id, span_id: randomBytes(8).toString('hex'), kind: 'llm' });
    for (const step of s.steps) {
      const call_id = callId('call_');
      lines.push({ ts: new Date((ts += 13)).toISOString(), run_id, span_id: randomBytes(8).toString('hex'), kind: 'tool_call', call_id, tool: step.tool, args: step.args });
      if (step.result !== null) {
        lines.push({ ts: new Date((ts += 11)).toISOString(), run_id, kind: 'tool_result', call_id, tool: step.tool, ...(step.error ? { error: step.result } : { result: step.result }) });
      }
      lines.push({ ts: new Date((ts += 5)).toISOString(), run_id, span_id: randomBytes(8).toString('hex'), kind: 'llm' });
    }
  }
  return { [`traces/suite-${t.compact}.jsonl`]: lines.map((l) => `${JSON.stringify(l)}\n`).join('') };
}

/** Claude Code: one session file per scenario, `projects/-work-shop/<session id>.jsonl`, the prompt its first user message. */
export function claudeCodeSuite(run: SuiteRun): Record<string, string> {
  const files: Record<string, string> = {};
  for (const s of scenarios(run)) {
    const sessionId = randomUUID();
    let ms = stamp().ms;
    const base = () => ({ sessionId, uuid: randomUUID(), timestamp: new Date((ms += 9)).toISOString(), cwd: '/work/shop', version: '2.0.0' });
    const lines: unknown[] = [{ ...base(), type: 'user', message: { role: 'user', content: s.prompt } }];
    for (const step of s.steps) {
      const id = callId('toolu_');
      lines.push({ ...base(), type: 'assistant', message: { id: callId('msg_'), role: 'assistant', content: [{ type: 'tool_use', id, name: step.tool, input: step.args }] } });
      if (step.result !== null) {
        lines.push({ ...base(), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: step.result, ...(step.error ? { is_error: true } : {}) }] } });
      }
    }
    lines.push({ ...base(), type: 'assistant', message: { id: callId('msg_'), role: 'assistant', content: [{ type: 'text', text: 'Done.' }] } });
    files[`projects/-work-shop/${sessionId}.jsonl`] = lines.map((l) => `${JSON.stringify(l)}\n`).join('');
  }
  return files;
}

/** Inspect: one `.eval` archive named `<time>_shop_<short uuid>.eval`, each sample with a new `uuid`. */
export function inspectSuite(run: SuiteRun): Record<string, Uint8Array> {
  const t = stamp();
  const entries: Record<string, Uint8Array> = { 'header.json': strToU8(JSON.stringify({ version: 2, eval: { task: 'shop', eval_id: randomBytes(11).toString('hex'), created: t.iso } })) };
  for (const s of scenarios(run)) {
    const messages: unknown[] = [{ role: 'user', content: s.prompt }];
    for (const step of s.steps) {
      const id = callId('call_');
      messages.push({ role: 'assistant', content: '', tool_calls: [{ id, function: step.tool, arguments: step.args }] });
      if (step.result !== null) messages.push({ role: 'tool', tool_call_id: id, function: step.tool, content: step.result, ...(step.error ? { error: { type: 'unknown', message: step.result } } : {}) });
    }
    const sample = { id: s.name, epoch: 1, uuid: randomBytes(11).toString('base64url'), input: s.prompt, messages, events: [{ event: 'model', tools: TOOLS.map((name) => ({ name, parameters: { type: 'object' } })) }] };
    entries[`samples/${s.name}_epoch_1.json`] = strToU8(JSON.stringify(sample));
  }
  const short = randomBytes(16).toString('base64').replace(/[^A-Za-z0-9]/g, '').padEnd(20, 'Q').slice(0, 20);
  return { [`logs/${t.iso.replace(/:/g, '-').replace(/\.\d+Z$/, '+00-00')}_shop_${short}7a.eval`]: zipSync(entries) };
}

/** OpenTelemetry: the real JS SDK with its random trace and span ids, one OTLP JSON file `otel/traces-<epoch ms>.jsonl`. */
export function otelSuite(run: SuiteRun): Record<string, string> {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('shop-agent', '1.0.0');
  const start = (name: string, at: number, attributes: Record<string, string>, parent?: Span): Span =>
    tracer.startSpan(name, { kind: SpanKind.INTERNAL, startTime: at, attributes }, parent ? trace.setSpan(context.active(), parent) : context.active());
  const t = stamp();
  let at = t.ms;
  for (const s of scenarios(run)) {
    const agent = start('invoke_agent shop', (at += 10), { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'shop' });
    const calls = s.steps.map((step) => ({ step, id: callId('call_') }));
    const chat = start('chat', (at += 1), {
      'gen_ai.operation.name': 'chat',
      'gen_ai.tool.definitions': JSON.stringify(TOOLS.map((name) => ({ type: 'function', name, parameters: { type: 'object' } }))),
      'gen_ai.input.messages': JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: s.prompt }] }]),
      'gen_ai.output.messages': JSON.stringify([{ role: 'assistant', parts: calls.map(({ step, id }) => ({ type: 'tool_call', id, name: step.tool, arguments: step.args })) }]),
    }, agent);
    chat.end((at += 2));
    for (const { step, id } of calls) {
      if (step.result === null) continue;
      const tool = start(`execute_tool ${step.tool}`, (at += 1), {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': step.tool,
        'gen_ai.tool.call.id': id,
        'gen_ai.tool.call.arguments': JSON.stringify(step.args),
        'gen_ai.tool.call.result': step.result,
      }, agent);
      if (step.error) tool.setStatus({ code: 2, message: step.result });
      tool.end((at += 3));
    }
    agent.end((at += 5));
  }
  const spans: ReadableSpan[] = exporter.getFinishedSpans().slice();
  return { [`otel/traces-${t.ms}.jsonl`]: otlpJsonLine(spans) };
}
