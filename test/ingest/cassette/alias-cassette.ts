/** The anchored response body of `aliasCassette`: an Anthropic message with one tool call padded to `bodyBytes`. */
function message(bodyBytes: number): string {
  return JSON.stringify({ type: 'message', role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'ls', input: { pad: 'p'.repeat(bodyBytes) } }] });
}

/**
 * A cassette whose first response body is anchored (`&body`) and whose next `aliases`
 * interactions reuse it (`*body`): a small file that reads as `aliases` copies of the body
 * (issue 35's item 8: 1,000 aliases of a 1 MB body in a 1.1 MB file).
 */
export function aliasCassette(bodyBytes: number, aliases: number): string {
  const interaction = (body: string) => [
    '- request:',
    `    body: '{"model":"claude","messages":[{"role":"user","content":"hi"}]}'`,
    '    method: POST',
    '    uri: https://api.anthropic.com/v1/messages',
    '  response:',
    `    body: ${body}`,
    '    status:',
    '      code: 200',
  ];
  const lines = ['interactions:', ...interaction(`&body\n      string: '${message(bodyBytes)}'`)];
  for (let i = 0; i < aliases; i += 1) lines.push(...interaction('*body'));
  return `${lines.join('\n')}\n`;
}

/** What one `*body` stands for in the source: the key `string` (6 bytes) and the quoted body. */
export const aliasSize = (bodyBytes: number): number => 'string'.length + message(bodyBytes).length + 2;
