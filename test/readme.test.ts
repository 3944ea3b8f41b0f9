import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../src/audit/rules/index.js';
import { FORMATS } from '../src/ingest/registry.js';

describe('README', () => {
  const readme = readFileSync('README.md', 'utf8');
  it('lists every rule with its default severity and links its page', () => {
    for (const rule of RULES) {
      expect(readme).toContain(`| [\`${rule.meta.id}\`](docs/rules/${rule.meta.id}.md) | ${rule.meta.category} | ${rule.meta.defaultSeverity} |`);
    }
  });
  it('lists every format id', () => {
    for (const format of FORMATS) expect(readme).toContain(`| \`${format.id}\` |`);
  });
  it('gives exactly the two quick-start commands', () => {
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm test ');
  });
});
