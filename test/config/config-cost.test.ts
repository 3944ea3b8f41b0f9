import { openSync, closeSync, ftruncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/config/config.js';
import { CONFIG_MAX_BYTES, CONFIG_MAX_ENTRIES, countEntries } from '../../src/config/text.js';
import { tempDir } from '../helpers.js';

/** The message a configuration file gives, and how long it took (ms). */
async function configError(text: string | null, size = 0): Promise<{ message: string; ms: number }> {
  const path = join(tempDir(), 'c.yml');
  if (text === null) {
    const fd = openSync(path, 'w');
    ftruncateSync(fd, size);
    closeSync(fd);
  } else writeFileSync(path, text);
  const start = performance.now();
  const message = await loadConfigFile(path, 'c.yml').then(
    () => 'accepted',
    (error: Error) => error.message,
  );
  return { message, ms: performance.now() - start };
}

describe('what a configuration file may cost', () => {
  it('counts an upper bound of its keys and list items on the text', () => {
    expect(countEntries('rules:\n  retry-storm:\n    threshold: 4\ninclude:\n  - "a/**"\n  - b\n')).toBe(6);
    expect(countEntries('{"rules": {"a": "off", "b": "off"}}')).toBe(6);
    expect(countEntries('x: [a, b, c]\n? k\n')).toBe(5);
    // A hyphen inside a word or a rule id is no list item.
    expect(countEntries('rules:\n  stack-trace-in-result: off\n')).toBe(2);
  });

  it(`refuses more than ${CONFIG_MAX_ENTRIES} keys before the YAML parser runs (the parser's duplicate check is quadratic)`, async () => {
    const block = `limits:\n${Array.from({ length: 20_000 }, (_, i) => `  k${i}: 1\n`).join('')}`.slice(0, CONFIG_MAX_BYTES - 16);
    const flow = `rules: {${Array.from({ length: 30_000 }, (_, i) => `k${i}: 1`).join(', ')}}\n`.slice(0, CONFIG_MAX_BYTES - 16);
    for (const text of [block, flow]) {
      const { message, ms } = await configError(text);
      expect(message).toMatch(new RegExp(`^c\\.yml: more than ${CONFIG_MAX_ENTRIES} keys and list items \\(\\d+\\); a configuration file is capped at ${CONFIG_MAX_ENTRIES}$`));
      // One scan of at most 256 KiB: milliseconds (a generous bound for a loaded machine).
      expect(ms).toBeLessThan(1_000);
    }
  });

  it(`refuses a file over ${CONFIG_MAX_BYTES} bytes before reading it, a sparse 1 GiB file too`, async () => {
    const { message, ms } = await configError(null, 1024 ** 3);
    expect(message).toBe(`cannot read configuration file "c.yml": ${1024 ** 3} bytes, larger than the limit of ${CONFIG_MAX_BYTES} bytes (configuration files are capped at ${CONFIG_MAX_BYTES} bytes)`);
    expect(ms).toBeLessThan(1_000);
  });

  it('still finds a repeated key in any mapping, and reads a file at the cap', async () => {
    expect((await configError('rules:\n  retry-storm: off\n  retry-storm: error\n')).message).toBe('c.yml: not valid YAML: Map keys must be unique ("retry-storm" is repeated)');
    expect((await configError('fail-on: error\nfail-on: never\n')).message).toBe('c.yml: not valid YAML: Map keys must be unique ("fail-on" is repeated)');
    const include = `include:\n${Array.from({ length: CONFIG_MAX_ENTRIES - 1 }, (_, i) => `  - t${i}/*.jsonl\n`).join('')}`;
    expect((await configError(include)).message).toBe('accepted');
  });
});
