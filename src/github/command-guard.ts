import { randomBytes } from 'node:crypto';

// A line the Actions runner would run as a workflow command: `::name …::` after leading
// blanks (the current form) or `##[name]` anywhere in the line (the old form).
const COMMAND_LINE = /(?:^|[\r\n])[ \t]*::|##\[/;

/**
 * Plain log text for the runner. `core.info` writes its text as is, so a message
 * that could hold a workflow command (trace text, a file name, an artifact name)
 * is wrapped in `::stop-commands::<token>` … `::<token>::`, the token random and
 * absent from the text, so nothing in it can turn command processing back on.
 * Annotations (`core.warning`/`core.error`) need no guard: the toolkit escapes their text.
 */
export function guardCommands(message: string, token: () => string = randomToken): string {
  if (!COMMAND_LINE.test(message)) return message;
  let stop = token();
  while (message.includes(stop)) stop = token();
  return `::stop-commands::${stop}\n${message}\n::${stop}::`;
}

function randomToken(): string {
  return randomBytes(16).toString('hex');
}
