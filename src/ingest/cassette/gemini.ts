import { isObject, own, type JsonObject } from '../facts/fields.js';
import { contentParts } from '../otel/conventions/google-adk.js';
import type { CallFact as PartCall, ResultFact as PartResult } from '../otel/facts.js';
import { catalogTools, resultFact, type FactCollector, type Place, type ToolFact } from '../facts/tool-facts.js';

/** A Gemini API request body (`generateContent`): `contents` is the conversation so far. */
export function isGeminiRequest(body: JsonObject): boolean {
  return Array.isArray(own(body, 'contents'));
}

/** A Gemini API response body: `candidates[].content` is the model's new turn. */
export function isGeminiResponse(body: JsonObject): boolean {
  return Array.isArray(own(body, 'candidates'));
}

/** The tool facts of one Content: `functionCall` parts are calls, `functionResponse` parts results (paired by `id`, else by name). */
function contentFacts(content: unknown): ToolFact[] {
  if (!isObject(content)) return [];
  const calls: PartCall[] = [];
  const results: PartResult[] = [];
  contentParts(content, calls, results);
  return [
    ...calls.map((c): ToolFact => ({ kind: 'call', callId: c.id, tool: c.name, args: c.args })),
    ...results.map((r) => resultFact(r.id, r.name, r.content, r.isError)),
  ];
}

/** The declarations of `tools[].functionDeclarations` (or `function_declarations`). */
function geminiCatalog(request: JsonObject) {
  const tools = own(request, 'tools');
  if (!Array.isArray(tools)) return null;
  const defs: unknown[] = [];
  for (const tool of tools) {
    if (!isObject(tool)) continue;
    const declared = own(tool, 'functionDeclarations') ?? own(tool, 'function_declarations');
    if (Array.isArray(declared)) defs.push(...declared);
  }
  return defs.length > 0 ? catalogTools(defs) : null;
}

/**
 * A Gemini conversation recorded as a cassette. Every request repeats the
 * conversation so far in `contents`, and the model's turn a response gave comes
 * back as the next request's next content (where the client has added the call
 * ids the response lacked: pydantic-ai's `pyd_ai_…`). So a request is read only
 * past what the previous request and its response already held; a response's
 * calls are kept until the next request shows them again (then that copy, with
 * its ids, is the one kept, at the response's place), or the cassette ends. A
 * request that does not extend the previous one starts over (another conversation).
 */
export class GeminiConversation {
  /** How many contents the previous request plus its response held. */
  private seen = 0;
  private pending: { facts: ToolFact[]; place: Place } | null = null;

  constructor(private readonly collector: FactCollector) {}

  request(request: JsonObject, place: Place): void {
    const contents = own(request, 'contents') as unknown[];
    const from = contents.length < this.seen ? 0 : this.seen;
    if (this.pending !== null && from > 0) {
      // The model turn the last response gave, as this request repeats it.
      const echoed = contentFacts(contents[from - 1]);
      const given = this.pending.facts;
      if (echoed.length === given.length && echoed.every((f, i) => f.kind === given[i]!.kind && f.tool === given[i]!.tool)) this.pending.facts = echoed;
    }
    this.flush();
    const tools = geminiCatalog(request);
    if (tools) this.collector.catalog(tools, place);
    for (const content of contents.slice(from)) this.emit(contentFacts(content), place);
    this.seen = contents.length;
  }

  response(response: JsonObject, place: Place): void {
    this.collector.llm(place);
    const candidates = own(response, 'candidates') as unknown[];
    const first = candidates.find(isObject);
    const facts = first ? contentFacts(own(first, 'content')) : [];
    this.flush();
    this.pending = { facts, place };
    if (first && isObject(own(first, 'content'))) this.seen += 1;
  }

  /** The last response's calls as it gave them (nothing repeated them). */
  flush(): void {
    if (this.pending === null) return;
    this.emit(this.pending.facts, this.pending.place);
    this.pending = null;
  }

  private emit(facts: readonly ToolFact[], place: Place): void {
    for (const fact of facts) this.collector.fact(fact, place);
  }
}
