/**
 * The lists a streaming read walks, written as `$.events[*]`, `$[*]`,
 * `$.trace.observations[*]` or `$[*].observations[*]`: `$` is the document,
 * `.key` an object member (letters, digits, `_`, `-`, `$`), `[*]` every item of
 * a list. A pattern ends in `[*]`: the items of that list are the elements.
 */
export type ListStep = string | '*';

export interface ListPattern {
  /** The pattern as written (what elements carry as `list`). */
  readonly text: string;
  /** The steps to an element: keys and `*` (an index), the last one `*`. */
  readonly steps: readonly ListStep[];
}

const STEP = /\.([A-Za-z0-9_$-]+)|\[\*\]/y;

export function compileListPattern(text: string): ListPattern {
  if (!text.startsWith('$')) throw new Error(`list pattern ${JSON.stringify(text)} does not start with "$"`);
  const steps: ListStep[] = [];
  let at = 1;
  while (at < text.length) {
    STEP.lastIndex = at;
    const m = STEP.exec(text);
    if (!m) throw new Error(`list pattern ${JSON.stringify(text)}: cannot read it at character ${at}`);
    steps.push(m[1] ?? '*');
    at = STEP.lastIndex;
  }
  if (steps[steps.length - 1] !== '*') throw new Error(`list pattern ${JSON.stringify(text)} does not end in "[*]"`);
  return { text, steps };
}

/** A step in a document: an object key or a list index. */
export type PathStep = string | number;

function stepMatches(step: ListStep, at: PathStep): boolean {
  return step === '*' ? typeof at === 'number' : step === at;
}

/** The pattern whose element is the value at `path`, if any. */
export function elementPattern(patterns: readonly ListPattern[], path: readonly PathStep[]): ListPattern | null {
  for (const pattern of patterns) {
    if (pattern.steps.length !== path.length) continue;
    if (pattern.steps.every((step, i) => stepMatches(step, path[i]!))) return pattern;
  }
  return null;
}

/**
 * What the value at `path` must be for a pattern to go on through it: an
 * object (a key step follows), a list (a `*` step follows), either, or neither
 * (the value is read whole, as part of the document's rest).
 */
export function containerNeeded(patterns: readonly ListPattern[], path: readonly PathStep[]): { object: boolean; array: boolean } {
  let object = false;
  let array = false;
  for (const pattern of patterns) {
    if (pattern.steps.length <= path.length) continue;
    if (!path.every((at, i) => stepMatches(pattern.steps[i]!, at))) continue;
    if (pattern.steps[path.length] === '*') array = true;
    else object = true;
  }
  return { object, array };
}

/** `events[12]`, `[3].observations[0]`: a path as a message names it. */
export function describePath(path: readonly PathStep[]): string {
  let out = '';
  for (const step of path) out += typeof step === 'number' ? `[${step}]` : out === '' ? step : `.${step}`;
  return out === '' ? 'the document' : out;
}
