import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { reportOfFiles } from '../helpers.js';

/**
 * Every rule page's `## Example`: its trace, audited, gives the finding the page
 * shows (rule, line and message, word for word), as typescript-eslint tests its docs.
 */
const plain = (text: string) => text.replace(/[`'"]/g, '').replace(/\s+/g, ' ').trim().replace(/\.$/, '');
const PAGES = readdirSync('docs/rules')
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((page) => {
    const id = page.replace(/\.md$/, '');
    const text = readFileSync(`docs/rules/${page}`, 'utf8');
    const example = text.slice(text.indexOf('## Example'));
    const block = /```(\w+)\n([\s\S]*?)\n```/.exec(example);
    // The claim: `rule-id` at line N: the message, as a paragraph (it may wrap, and name a second finding after it).
    const claim = new RegExp('`' + id + '` at line (\\d+): ((?:[^\\n]+\\n?)+)').exec(example);
    return { id, block, claim };
  });

describe('rule pages: the example gives the finding the page shows', () => {
  for (const { id, block, claim } of PAGES) {
    if (block === null || claim === null) continue;
    it(id, async () => {
      const [, lang, body] = block;
      const report = await reportOfFiles({ [lang === 'jsonl' ? 'example.jsonl' : `example.${lang}`]: `${body}\n` });
      const found = report.findings.filter((f) => f.ruleId === id && f.line === Number(claim[1]));
      const shown = plain(claim[2]!);
      // The page's sentence starts with the message of a finding of that rule at that line.
      expect(found.map((f) => plain(f.message)).filter((message) => shown.startsWith(message)), `${shown}\n  is not one of\n${found.map((f) => f.message).join('\n')}`).not.toEqual([]);
    });
  }

  it('the pages not run are exactly these (their example is bytes, two files, a replay transcript or a crash): a new page is run or listed on purpose', () => {
    const notRun = PAGES.filter((p) => p.block === null || p.claim === null).map((p) => p.id);
    expect(notRun).toEqual(['byte-order-mark', 'malformed-record', 'missing-final-newline', 'non-determinism', 'partial-read', 'permission-overreach', 'receiver-loss', 'redundant-call', 'rule-crash', 'run-split', 'schema-drift', 'too-many-keys', 'truncated-tail', 'unknown-format']);
  });
});
