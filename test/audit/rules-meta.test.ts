import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../src/audit/rules/index.js';

const REQUIRED_SECTIONS = ['## What it finds', '## Why it matters', '## Likely cause', '## Next action', '## Options', '## Example'];

describe('every rule has a registry entry, a doc and a test', () => {
  it('ids are unique kebab-case', () => {
    const ids = RULES.map((rule) => rule.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/);
  });

  for (const rule of RULES) {
    const id = rule.meta.id;
    it(`${id}: doc with every section, test file, triage text`, () => {
      const doc = `docs/rules/${id}.md`;
      expect(existsSync(doc), `${doc} is missing`).toBe(true);
      const text = readFileSync(doc, 'utf8');
      expect(text.startsWith(`# ${id}\n`)).toBe(true);
      for (const section of REQUIRED_SECTIONS) expect(text, `${doc} lacks "${section}"`).toContain(section);
      const test = `test/audit/rules/${rule.meta.category}/${id}.test.ts`;
      expect(existsSync(test), `${test} is missing`).toBe(true);
      expect(rule.meta.likelyCause.length).toBeGreaterThan(10);
      expect(rule.meta.nextAction.length).toBeGreaterThan(10);
    });
  }

  it('every rule file under src/audit/rules/<category>/ is registered, in the folder of its category', () => {
    const folders = readdirSync('src/audit/rules', { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    const files = folders.flatMap((folder) => readdirSync(`src/audit/rules/${folder}`).filter((f) => f.endsWith('.ts')).map((f) => `${folder}/${f.replace(/\.ts$/, '')}`));
    expect(files.sort()).toEqual(RULES.map((r) => `${r.meta.category}/${r.meta.id}`).sort());
  });

  it('every doc belongs to a registered rule', () => {
    const docs = readdirSync('docs/rules').filter((f) => f.endsWith('.md')).map((f) => f.replace(/\.md$/, ''));
    expect(docs.sort()).toEqual(RULES.map((r) => r.meta.id).sort());
  });
});
