/** Trace text that tries to become markup, a mention, a link, a workflow command or a terminal escape. */
export const HOSTILE_TEXT = [
  '::add-mask::x',
  '::error::x',
  '::stop-commands::t',
  '##[add-mask]y',
  '@octocat',
  '@org/team',
  'fixes #1',
  'o/r#2',
  '<img src=x onerror=alert(1)>',
  '![](https://img.example/p.png)',
  '[click](https://evil.example)',
  'https://evil.example/auto',
  '<!--x-->',
  '</details>',
  '```',
  '&#64;x',
  '\u202e',
  '\u200b',
  '\u001b[31mred\u001b[0m',
  '$(touch pwned)',
  '`id`',
  '| cell |',
];

/** File names a trace folder may hold (Linux allows all of these). */
export const HOSTILE_FILE_NAMES = [
  'line\nbreak::error::x.jsonl',
  'pct 100%25 `tick` |pipe| $(touch pwned).jsonl',
  '::add-mask::x.jsonl',
  '@octocat <img src=x>.jsonl',
];

const ALNUM = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0';

/** A GitHub token built at run time (never committed as a literal), and its disguises. */
export function hiddenSecrets() {
  const ghp = `ghp_${ALNUM.slice(0, 36)}`;
  const ghs = `ghs_${ALNUM.slice(2, 38)}`;
  const credential = `x-access-token:${ghs}`;
  const base64 = Buffer.from(credential).toString('base64');
  // In raw JSON text: `\u0067hp_…` decodes to `ghp_…`.
  const escapedInJson = `\\u0067${ghp.slice(1)}`;
  return { ghp, ghs, base64, escapedInJson, mustNotAppear: [ghp, ghs, base64, ghp.slice(4), ghs.slice(4)] };
}

/** A typed-events trace whose tool names, call ids, arguments and broken lines carry hostile text and hidden secrets. */
export function hostileTrace(): string {
  const s = hiddenSecrets();
  const call = (id: string, name: string, args: unknown = {}) => JSON.stringify({ type: 'tool_call', run_id: 'run-1', tool_call_id: id, name, arguments: args });
  return [
    JSON.stringify({ type: 'catalog', run_id: 'run-1', catalog_names: ['ls'] }),
    ...HOSTILE_TEXT.map((text, i) => call(`c${i} ${text}`, text)),
    `{"type":"tool_call","run_id":"run-1","tool_call_id":"s1","name":"ls","arguments":{"token":"${s.escapedInJson}"}}`,
    call('s2', 'ls', { auth: s.base64 }),
    `{"type":"tool_call","run_id":"run-1","tool_call_id":"s3","name":"${s.escapedInJson}","arguments":{}}`,
    call('s4', s.base64),
    `{"broken": "${s.escapedInJson} ${s.base64}`,
    ...HOSTILE_TEXT.map((text) => `{"broken": ${JSON.stringify(text).slice(0, -1)} ${text}`),
  ]
    .map((line) => `${line}\n`)
    .join('');
}

/** Lines the Actions runner would read as a workflow command (`::cmd::` after leading blanks, or `##[cmd]` anywhere). */
export function workflowCommandLines(output: string): string[] {
  return output.split(/\r\n|\r|\n/).filter((line) => line.trimStart().startsWith('::') || line.includes('##['));
}

/**
 * The lines the runner would act on in a step's output: `workflowCommandLines`, except inside a
 * `::stop-commands::<token>` … `::<token>::` guard (the guard's own two lines are not counted).
 */
export function liveCommandLines(output: string): string[] {
  const found: string[] = [];
  let stop: string | null = null;
  for (const raw of output.split(/\r\n|\r|\n/)) {
    const text = raw.trimStart();
    if (stop !== null) {
      if (text === `::${stop}::`) stop = null;
      continue;
    }
    const command = /^::([A-Za-z-]+)(?:[ \t][^:]*)?::(.*)$/.exec(text);
    if (command?.[1] === 'stop-commands') stop = command[2]!;
    else if (workflowCommandLines(raw).length > 0) found.push(raw);
  }
  return found;
}
