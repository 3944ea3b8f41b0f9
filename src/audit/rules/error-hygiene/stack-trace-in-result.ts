import { z } from 'zod';
import type { HeldRecord } from '../../../model/run.js';
import { defineRule } from '../rule-types.js';

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  rust: 'Rust panic',
  go: 'Go panic',
  python: 'Python traceback',
  java: 'Java/JVM stack trace',
  dotnet: '.NET stack trace',
  ruby: 'Ruby backtrace',
  javascript: 'JavaScript stack trace',
};

export const stackTraceInResult = defineRule({
  meta: {
    id: 'stack-trace-in-result',
    category: 'error-hygiene',
    defaultSeverity: 'warning',
    summary: 'A stack trace in a tool result: it leaks internals, is re-read on every later turn and sends the model in wrong directions.',
    likelyCause: 'No failure path at the tool boundary: whatever the library raised is serialised into the result.',
    nextAction: 'Catch at the tool boundary, log the trace with a reference, and return an error body with a stable code and that reference.',
    options: z.strictObject({}),
  },
  keeps: ['stack-trace'],
  check(run, ctx, report) {
    // Later turns by record order (time order in every parser), not by line: a
    // whole-document format puts many records on one line. llmAfter[i] = llm spans after records[i].
    // Built on the first trace found: most runs have none.
    let llmAfter: Map<HeldRecord, number> | null = null;
    const turnsAfter = (result: HeldRecord): number => {
      if (llmAfter === null) {
        llmAfter = new Map();
        let seen = 0;
        for (let i = run.records.length - 1; i >= 0; i -= 1) {
          const record = run.records[i]!;
          if (record.kind === 'llm') seen += 1;
          else if (record.kind === 'tool_result') llmAfter.set(record, seen);
        }
      }
      return llmAfter.get(result) ?? 0;
    };
    for (const result of run.results) {
      const trace = result.stackTrace;
      if (trace === null) continue;
      const path = trace.path;
      const turns = turnsAfter(result);
      const cost = turns === 0 ? 'no later llm turn in the run' : `re-read on ${turns} later llm turn${turns === 1 ? '' : 's'}: ~${trace.tokens * turns} tokens`;
      ctx.metric('traces', 1);
      ctx.metric('tokens', trace.tokens * turns);
      const where = path === '' ? '' : ` at ${path}`;
      const tool = result.tool === null ? 'a tool' : `'${result.tool}'`;
      report({
        loc: result.loc,
        runId: run.runId,
        callId: result.callId,
        tool: result.tool,
        key: `${trace.language}:${trace.path}`,
        message: `${LANGUAGE_NAMES[trace.language]} (${trace.frames} frame${trace.frames === 1 ? '' : 's'}, ~${trace.tokens} tokens) in the result of ${tool}${where}; ${cost}`,
      });
    }
  },
});
