import type { MappedSpan } from './conventions/map-span.js';

/**
 * The run of each span's records: the trace's, or for a span below a tool span that
 * has a model span below it (an agent run as a tool: OpenAI Agents' `as_tool()`, ADK's
 * AgentTool), that agent's own run `<trace id>/<tool span id>` (the nearest such tool
 * span above it): its model calls are not the calling model going on while the tool
 * runs, and its catalog is its own.
 */
export function agentRuns(traceId: string | null, spans: readonly MappedSpan[], byId: ReadonlyMap<string, MappedSpan>): (span: MappedSpan) => string | null {
  const parentOf = (span: MappedSpan) => (span.parentId === null ? undefined : byId.get(span.parentId));
  const agentTools = new Set<MappedSpan>();
  for (const span of spans) {
    if (!span.facts.model) continue;
    const seen = new Set<MappedSpan>([span]);
    for (let up = parentOf(span); up !== undefined && !seen.has(up); up = parentOf(up)) {
      seen.add(up);
      if (up.facts.tool !== null) {
        agentTools.add(up);
        break;
      }
    }
  }
  if (agentTools.size === 0) return () => traceId;
  const memo = new Map<MappedSpan, string | null>();
  const runOf = (span: MappedSpan): string | null => {
    const known = memo.get(span);
    if (known !== undefined) return known;
    memo.set(span, traceId); // a cycle of parents ends here
    const parent = parentOf(span);
    const run = parent === undefined ? traceId : agentTools.has(parent) ? `${traceId ?? ''}/${parent.spanId}` : runOf(parent);
    memo.set(span, run);
    return run;
  };
  return runOf;
}

/** Is `span` a tool span that runs an agent (a model span below it)? Walks up stop there: what is below is another run. */
export function runsAgent(span: MappedSpan, runOf: (span: MappedSpan) => string | null, child: MappedSpan): boolean {
  return span.facts.tool !== null && runOf(child) !== runOf(span);
}
