/**
 * Recorded HTTP cassettes, told apart from other YAML by their first bytes. vcrpy (and
 * Polly-style) cassettes start with their `interactions:` list; go-vcr's (v1 and v2, the
 * recorder of Go agent libraries) with `version: 1` or `version: 2` and then that list,
 * each interaction's request keeping its address under `url:` (vcrpy: `uri:`), with
 * `proto:` in v2. The interactions are read the same way either way (parseCassette).
 */
const VCRPY = /^(---\s*\n)?interactions:\s*\n/;
const GO_VCR = /^(---[ \t]*\n)?version:[ \t]*[12][ \t]*\n(#[^\n]*\n)*interactions:[ \t]*\n/;
const REQUEST = /\n\s*-?\s*request:\s*\n/;

/** Whether the head of a file is a VCR cassette: vcrpy's `interactions:` list, or go-vcr's `version:` then that list; its items hold a `request:`. */
export function looksLikeCassette(head: Buffer): boolean {
  const text = head.subarray(0, 4096).toString('utf8');
  return (VCRPY.test(text) || GO_VCR.test(text)) && REQUEST.test(text);
}

/** go-vcr's cassette version (1 or 2) when the head is one, else null. */
export function goVcrVersion(head: Buffer): 1 | 2 | null {
  const match = GO_VCR.exec(head.subarray(0, 4096).toString('utf8'));
  return match === null ? null : (Number(/version:[ \t]*([12])/.exec(match[0])![1]) as 1 | 2);
}

const ADDRESS = String.raw`(?:uri|url):\s*['"]?https?:\/\/`;
const BEDROCK = new RegExp(`${ADDRESS}(bedrock-agent-runtime\\.[^\\s/]+\\/agents\\/|bedrock-runtime\\.[^\\s/]+\\/model\\/([^\\s'"/]+\\/converse(-stream)?(?![\\w-])|amazon\\.nova))`);
const ANTHROPIC = new RegExp(`${ADDRESS}api\\.anthropic\\.com\\/|\\n\\s*anthropic-version:\\s*\\n|"anthropic_version"\\s*:|${ADDRESS}bedrock-runtime\\.[^\\s/]+\\/model\\/[^\\s/]*anthropic\\.`);
const GEMINI = new RegExp(`${ADDRESS}(generativelanguage\\.googleapis\\.com|[a-z0-9-]*aiplatform\\.googleapis\\.com)\\/[^\\s'"]*:(stream)?[gG]enerateContent`);

/**
 * Whose API a cassette recorded, from its head: Amazon Bedrock's Agents (`InvokeAgent`)
 * or Converse API (or an Amazon Nova model, whose own body is Converse's), Anthropic (its host, header or a Bedrock `InvokeModel` of an Anthropic
 * model), Gemini (a `:generateContent` address of the Gemini API or Vertex AI), or else
 * OpenAI-style.
 */
export function cassetteProvider(head: Buffer): 'bedrock' | 'anthropic' | 'gemini' | 'openai' {
  const text = head.subarray(0, 256 * 1024).toString('utf8');
  if (BEDROCK.test(text)) return 'bedrock';
  if (ANTHROPIC.test(text)) return 'anthropic';
  if (GEMINI.test(text)) return 'gemini';
  return 'openai';
}
