import { readFileSync } from 'node:fs';
// The bench's deterministic PRNG (mulberry32), so the suite is the same on every run.
import { mulberry32 } from '../../../bench/gen-span-log.mjs';

/**
 * A simulated suite of agent runs with planted defects, and the truth of what was
 * planted, written here as each record is appended: which rule should report what
 * at which line. Nothing here calls the audit; the truth follows from the
 * definitions in docs/rules/ (and the seeds), applied by hand to each scenario.
 *
 * Every run records a catalog of exactly the tools it calls (so unused-tool and
 * catalog-missing are only where planted), timestamps a second or less apart
 * (so llm-stall only where planted), and error results with a stable,
 * non-catch-all code (so unstructured-error and unmapped-error-share only where planted).
 */
export interface Planted {
  readonly rule: string;
  readonly file: string;
  readonly line: number;
}

export interface Suite {
  readonly files: Record<string, string>;
  readonly truth: Planted[];
}

const TRACEBACK = readFileSync('test/fixtures/seeds/002-update-ticket-traceback.txt', 'utf8').trimEnd();

class FileWriter {
  readonly lines: string[] = [];
  private clock = Date.UTC(2026, 8, 7, 9, 0, 0);
  constructor(
    readonly name: string,
    private readonly truth: Planted[],
  ) {}

  /** Appends a record (with a timestamp `step` ms after the previous one) and returns its line. */
  add(record: Record<string, unknown>, step = 200): number {
    this.clock += step;
    this.lines.push(JSON.stringify({ ts: new Date(this.clock).toISOString(), ...record }));
    return this.lines.length;
  }

  plant(rule: string, line: number): void {
    this.truth.push({ rule, file: this.name, line });
  }
}

/** One run: its catalog first, then what the scenario writes. */
class RunWriter {
  private calls = 0;
  constructor(
    readonly file: FileWriter,
    readonly runId: string,
  ) {}

  catalog(names: string[]): number {
    return this.file.add({ type: 'catalog', run_id: this.runId, catalog_names: [...names].sort() });
  }
  llm(step?: number): number {
    return this.file.add({ run_id: this.runId, kind: 'llm' }, step);
  }
  call(tool: string, args: object, extra: object = {}, id?: string): { line: number; id: string } {
    const callId = id ?? `${this.runId}-c${(this.calls += 1)}`;
    return { line: this.file.add({ run_id: this.runId, kind: 'tool_call', call_id: callId, tool, args, ...extra }), id: callId };
  }
  result(id: string, tool: string, fields: object, step?: number): number {
    return this.file.add({ run_id: this.runId, kind: 'tool_result', call_id: id, tool, ...fields }, step);
  }
}

const ok = (text: string) => ({ result: { text } });
const failed = (code: string) => ({ http_status: 503, error_code: code, result: { error: { code, message: 'upstream unavailable' } } });

/** The scenarios; each plants its own truth. */
const SCENARIOS: ReadonlyArray<(run: RunWriter, random: () => number) => void> = [
  // A retry storm after errors, then a success: retry-storm and slow-recovery; no redundant-call, no non-determinism.
  (run, random) => {
    const failures = 3 + Math.floor(random() * 3);
    run.catalog(['search']);
    run.llm();
    let first = 0;
    let firstError = 0;
    for (let i = 0; i < failures; i += 1) {
      const c = run.call('search', { q: 'install' });
      const r = run.result(c.id, 'search', failed('upstream_unavailable'));
      if (i === 0) [first, firstError] = [c.line, r];
    }
    const c = run.call('search', { q: 'install' });
    run.result(c.id, 'search', ok('3 hits'));
    run.llm();
    run.file.plant('retry-storm', first);
    // Further calls until success: `failures` (> the default threshold 2).
    run.file.plant('slow-recovery', firstError);
  },
  // A retry after a timeout (a result past its deadline), answered the second time: budget-miss and late-result on the first.
  (run) => {
    run.catalog(['fetch_page']);
    run.llm();
    const c1 = run.call('fetch_page', { url: 'https://example.test/a' }, { deadline_ms: 1000 });
    const r1 = run.result(c1.id, 'fetch_page', ok('slow page'), 3000);
    const c2 = run.call('fetch_page', { url: 'https://example.test/a' }, { deadline_ms: 1000 });
    run.result(c2.id, 'fetch_page', ok('page'));
    run.llm();
    run.file.plant('budget-miss', c1.line);
    run.file.plant('late-result', r1);
  },
  // Writes between reads: no redundant-call; then a back-to-back identical read: one redundant-call.
  (run) => {
    run.catalog(['read_file', 'write_file']);
    run.llm();
    for (const [tool, args] of [
      ['read_file', { path: 'a.md' }],
      ['write_file', { path: 'a.md', text: 'x' }],
      ['read_file', { path: 'a.md' }],
    ] as const) {
      const c = run.call(tool, args);
      run.result(c.id, tool, ok('done'));
    }
    const c1 = run.call('read_file', { path: 'b.md' });
    run.result(c1.id, 'read_file', ok('# B'));
    const c2 = run.call('read_file', { path: 'b.md' });
    run.result(c2.id, 'read_file', ok('# B'));
    run.llm();
    run.file.plant('redundant-call', c2.line);
  },
  // A call id reused within the run (duplicate-call-id); the same ids appear in other runs too (no finding there).
  (run) => {
    run.catalog(['grep']);
    run.llm();
    const c1 = run.call('grep', { pattern: 'a' }, {}, 'shared-1');
    run.result(c1.id, 'grep', ok('1 match'));
    const c2 = run.call('grep', { pattern: 'b' }, {}, 'shared-1');
    run.result(c2.id, 'grep', ok('2 matches'));
    run.llm();
    run.file.plant('duplicate-call-id', c2.line);
    // The second result answers the first call again: an extra result, not a pairing of c2, so c2 is no orphan
    // (orphan-call reports the first call of an id only) and the result is not unmatched.
  },
  // An orphan the model went past, and a result for a call never made.
  (run) => {
    const catalog = run.catalog(['web_search', 'read_file']);
    run.llm();
    const c = run.call('web_search', { q: 'status' });
    run.llm();
    run.result('never-issued', 'read_file', ok('# fake'));
    // read_file was offered and never called (only a result names it).
    run.file.plant('unused-tool', catalog);
    run.file.plant('orphan-call', c.line);
    run.file.plant('continued-while-outstanding', c.line);
    run.file.plant('unmatched-result', run.file.lines.length);
  },
  // An LLM stall: nothing outstanding, 20 s without output.
  (run) => {
    run.catalog(['search']);
    run.llm();
    const c = run.call('search', { q: 'x' });
    run.result(c.id, 'search', ok('1 hit'));
    const stalled = run.llm(20_000);
    run.file.plant('llm-stall', stalled);
  },
  // A stack trace nothing flagged as an error: stack-trace-in-result, internal-detail-leak, unstructured-error; the tool
  // never succeeds afterwards but the run ends at once (slow-recovery's further calls: 0, under its threshold).
  (run) => {
    run.catalog(['update_ticket']);
    run.llm();
    const c = run.call('update_ticket', { ticket_id: '7', status: 'OPEN' });
    const r = run.result(c.id, 'update_ticket', { output: TRACEBACK });
    run.llm();
    for (const rule of ['stack-trace-in-result', 'internal-detail-leak', 'unstructured-error']) run.file.plant(rule, r);
  },
  // An invented tool and a catalog tool never called.
  (run) => {
    const catalog = run.catalog(['pytest', 'grep']);
    run.llm();
    const c = run.call('run_tests', { path: 'tests/' });
    run.result(c.id, 'run_tests', ok('ran'));
    const p = run.call('pytest', { args: ['-q'] });
    run.result(p.id, 'pytest', ok('2 passed'));
    run.llm();
    run.file.plant('unknown-tool', c.line);
    run.file.plant('unused-tool', catalog);
  },
  // Non-determinism: the same successful search answered differently, a different call between.
  (run) => {
    run.catalog(['search', 'read_file']);
    run.llm();
    const c1 = run.call('search', { q: 'install' });
    run.result(c1.id, 'search', ok('3 hits'));
    const c2 = run.call('read_file', { path: 'x' });
    run.result(c2.id, 'read_file', ok('x'));
    const c3 = run.call('search', { q: 'install' });
    const r3 = run.result(c3.id, 'search', ok('4 hits'));
    run.llm();
    run.file.plant('non-determinism', r3);
  },
  // Clean: nothing to report.
  (run) => {
    run.catalog(['list_dir', 'read_file']);
    run.llm();
    // The call id another run of the file uses as well: ids are per run, so no duplicate-call-id.
    const c1 = run.call('list_dir', { path: '.' }, {}, 'shared-1');
    run.result(c1.id, 'list_dir', ok('a.md b.md'));
    const c2 = run.call('read_file', { path: 'a.md' });
    run.result(c2.id, 'read_file', ok('# A'));
    run.llm();
  },
];

/** `files` files, each with every scenario once (in a shuffled order), as its own run. */
export function plantedSuite(files = 10, seed = 23): Suite {
  const random = mulberry32(seed);
  const truth: Planted[] = [];
  const out: Record<string, string> = {};
  for (let f = 0; f < files; f += 1) {
    const file = new FileWriter(`suite-${String(f).padStart(2, '0')}.jsonl`, truth);
    const order = SCENARIOS.map((scenario, i) => ({ scenario, i, key: random() })).sort((a, b) => a.key - b.key);
    for (const { scenario, i } of order) scenario(new RunWriter(file, `f${f}-s${i}`), random);
    out[file.name] = `${file.lines.join('\n')}\n`;
  }
  return { files: out, truth };
}
