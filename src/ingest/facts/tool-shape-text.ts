/**
 * Tool-shaped content in the text of a trace, whatever its format: JSON, JSON
 * lines, YAML, or JSON quoted inside a string (a cassette's body). Used on a
 * file a parser claimed and read no tool call from (src/audit/engine/tool-shape-scan.ts):
 * it names what it saw, so "no tool call" is never said of a file that holds them.
 * Empty values (`"tool_calls": null`, `[]`) are not tool-shaped.
 */

/** A quote as it appears in JSON, or in JSON quoted once or twice inside a string. */
const Q = String.raw`(?:\\{0,3}")?`;
const EMPTY = String.raw`(?!\s*(?:null\b|None\b|~|\[\s*\]|\{\s*\}|\\{0,3}"\\{0,3}"))`;

const SHAPES: ReadonlyArray<readonly [label: string, pattern: RegExp]> = [
  // Keys that hold a call or a result (OpenAI, Anthropic, Gemini, LangChain, Vercel AI SDK …).
  ['key', new RegExp(String.raw`(?<![A-Za-z0-9_.])${Q}(tool_calls|tool_call_id|tool_use_id|function_call|functionCall|functionResponse|function_response|toolCalls|toolCallId|toolUse|toolResult)${Q}\s*:${EMPTY}`, 'g')],
  // Blocks and items typed as a call or a result.
  ['type', new RegExp(String.raw`${Q}type${Q}\s*:\s*${Q}(tool_use|tool_result|server_tool_use|mcp_tool_use|mcp_tool_result|function_call|function_call_output|custom_tool_call|[a-z_]+_tool_result|tool-call|tool-result)\b`, 'g')],
  ['role', new RegExp(String.raw`${Q}role${Q}\s*:\s*${Q}(tool)${Q}(?![A-Za-z_])`, 'g')],
  // Span attributes: GenAI semantic conventions, OpenInference flattened keys and span kinds.
  ['attribute', /(?<![A-Za-z0-9_])(gen_ai\.tool\.[a-z_.]+|tool\.name|tool_call\.function\.name)\b/g],
  ['attribute', new RegExp(String.raw`(openinference\.span\.kind)${Q}\s*[:=,]\s*(?:${Q}value${Q}\s*:\s*)?\{?\s*(?:${Q}stringValue${Q}\s*:\s*)?${Q}TOOL\b`, 'g')],
  // A text action: a fenced shell block an agent's message asks to run (mini-swe-agent, SWE-agent).
  ['fenced', /```(bash|sh|shell)\b/g],
];

/** The labels of the tool-shaped places in one line of text, in order (e.g. `tool_calls`, `type: tool_use`, `fenced bash block`). */
export function toolShapesIn(text: string): string[] {
  const found: Array<[number, string]> = [];
  for (const [kind, pattern] of SHAPES) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const name = match[1]!;
      const label = kind === 'type' ? `type: ${name}` : kind === 'role' ? 'role: tool' : kind === 'fenced' ? `fenced ${name} block` : kind === 'attribute' && name.startsWith('openinference') ? 'openinference.span.kind: TOOL' : name;
      found.push([match.index ?? 0, label]);
    }
  }
  return found.sort((a, b) => a[0] - b[0]).map(([, label]) => label);
}
