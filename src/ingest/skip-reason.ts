/** The longest name a skip reason quotes from a trace (reasons are grouped per file, so they stay short). */
const MAX_NAME = 40;

/** A name from the trace (a record or line type) in quotes, cut at 40 characters, for a `sink.skip` reason. */
export function quotedName(name: string | null): string {
  if (name === null || name === '') return '(no type)';
  return `"${name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name}"`;
}
