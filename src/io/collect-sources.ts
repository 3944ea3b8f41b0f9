import type { AuditInput, InputNote } from '../model/audit.js';
import { collectInputs, type Collected, type Skipped } from './collect.js';

/** A folder read whole, its files shown as `<prefix>/<path inside root>` (e.g. a downloaded artifact). */
export interface CollectSource {
  readonly root: string;
  readonly prefix: string;
  /** Findings about every file of the folder from the code that wrote it (the OTLP receiver's losses). */
  readonly notes?: readonly InputNote[];
}

export interface CollectAllOptions {
  /** The working folder: `specs` are relative to it and its files are shown relative to it. */
  readonly root: string;
  readonly exclude?: readonly string[];
  readonly strict?: boolean;
  readonly trustNamed?: boolean;
}

/**
 * The files of `specs` under the working folder plus every trace file inside
 * each source folder, as one sorted list. Exclude patterns apply to the names
 * shown (so `agent-traces-1/**` excludes an artifact). Two files that would be
 * shown under the same name are ambiguous in every report: the later one is
 * skipped with a reason.
 */
export async function collectAll(specs: readonly string[], sources: readonly CollectSource[], options: CollectAllOptions): Promise<Collected> {
  const parts: Collected[] = [];
  if (specs.length > 0) parts.push(await collectInputs(specs, options));
  for (const source of sources) {
    const part = await collectInputs(['.'], { root: source.root, prefix: source.prefix, strict: false, ...(options.exclude ? { exclude: options.exclude } : {}) });
    parts.push(source.notes && source.notes.length > 0 ? { ...part, inputs: part.inputs.map((input) => ({ ...input, notes: source.notes })) } : part);
  }
  const byDisplay = new Map<string, AuditInput>();
  const skipped: Skipped[] = [];
  for (const part of parts) {
    skipped.push(...part.skipped);
    for (const input of part.inputs) {
      const seen = byDisplay.get(input.display);
      if (seen === undefined) byDisplay.set(input.display, input);
      else if (seen.path !== input.path) skipped.push({ display: input.display, reason: 'refused: another file is already read under this name' });
    }
  }
  const inputs = [...byDisplay.values()].sort((a, b) => (a.display < b.display ? -1 : a.display > b.display ? 1 : 0));
  return { inputs, skipped };
}
