// Regenerates agent-trace-audit.schema.json from the zod configuration schema
// (src/config/config.ts is the source of truth). `npm run schema` after adding a rule
// or an option; test/config/json-schema.test.ts fails while the file is stale.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const tmp = mkdtempSync(join(tmpdir(), 'ata-schema-'));
try {
  const ncc = join('node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');
  execFileSync(process.execPath, [ncc, 'build', 'src/config/json-schema.ts', '-o', tmp, '--quiet', '--target', 'es2022'], { stdio: 'inherit' });
  writeFileSync(join(tmp, 'package.json'), '{ "type": "module" }\n');
  const { SCHEMA_FILE, configJsonSchemaText } = await import(pathToFileURL(join(tmp, 'index.js')).href);
  writeFileSync(SCHEMA_FILE, configJsonSchemaText());
  console.log(`wrote ${SCHEMA_FILE}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
