import type { FindingDelta } from '../verdict/delta.js';
import { plural } from '../verdict/verdict.js';
import { findingLine, whereTheRestIs, type Comparison, type MoreLinks } from './delta-lines.js';
import type { FileLinks } from './links.js';

/**
 * Where a flaky finding was seen, in our own words: `seen in 2 of the last 5 runs on main`
 * (the Action, the base branch's name as the event gives it) or `seen in 2 of the 5 baseline
 * reports` (the CLI's --baseline reports).
 */
export function seenIn(comparison: Comparison, runs: number, of: number): string {
  if ((comparison.against ?? 'base-branch') === 'baseline') return `seen in ${runs} of the ${plural(of, 'baseline report', 'baseline reports')}`;
  const branch = comparison.baseRef ? ` on ${safeBranch(comparison.baseRef)}` : ' on the base branch';
  return of === 1 ? `seen in the last run${branch}` : `seen in ${runs} of the last ${of} runs${branch}`;
}

/**
 * The findings the comparison sets apart, each a collapsed list under one line: the flaky
 * ones (some but not all base reports had them; they never fail the gate) and those not
 * compared (rules the base reports did not run at this rule version). None when there are none.
 */
export function apartLines(comparison: Comparison, links: FileLinks, more: MoreLinks, maxShown: number, refs = false): string[] {
  if (comparison.kind !== 'compared') return [];
  const { delta } = comparison;
  const out: string[] = [];
  if (delta.flaky.length > 0) {
    const title = `Flaky: ${plural(delta.flaky.length, 'finding', 'findings')} seen in some but not all of the ${basesWord(comparison)} (never failing the gate)`;
    const items = delta.flaky.slice(0, maxShown).map((f) => `${findingLine(f.finding, links, refs)} (${seenIn(comparison, f.seenIn, f.of)})`);
    out.push('', ...collapsed(title, items, delta.flaky.length - maxShown, more));
  }
  if (delta.notCompared.length > 0) {
    const title = `Not compared: ${plural(delta.notCompared.length, 'finding', 'findings')} of rules new since the base's ${versionWord(delta)} (or run there at another rule version)`;
    const items = delta.notCompared.slice(0, maxShown).map((f) => findingLine(f, links, refs));
    out.push('', ...collapsed(title, items, delta.notCompared.length - maxShown, more));
  }
  return out;
}

function collapsed(title: string, items: readonly string[], more: number, links: MoreLinks): string[] {
  const rest = more > 0 ? [`- … and ${more} more in ${whereTheRestIs(links)}.`] : [];
  return [`<details><summary>${title}</summary>`, '', ...items, ...rest, '', '</details>'];
}

function basesWord(comparison: Comparison & { readonly kind: 'compared' }): string {
  const n = comparison.delta.baselines;
  if ((comparison.against ?? 'base-branch') === 'baseline') return plural(n, 'baseline report', 'baseline reports');
  return `last ${plural(n, 'run', 'runs')}${comparison.baseRef ? ` on ${safeBranch(comparison.baseRef)}` : ' on the base branch'}`;
}

/** The base reports' tool version: our own digits and dots only (a stored report may carry any text). */
function versionWord(delta: FindingDelta): string {
  const v = delta.baseVersion.replace(/[^0-9A-Za-z.+-]/g, '').slice(0, 40);
  return v === '' ? 'version' : v;
}

/** A branch name from the event: only [A-Za-z0-9._/-] (it goes into markdown). */
function safeBranch(name: string): string {
  return name.replace(/[^A-Za-z0-9._/-]/g, '-').slice(0, 100);
}
