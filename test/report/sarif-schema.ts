import { Ajv } from 'ajv';
import { readFileSync } from 'node:fs';

// The SARIF 2.1.0 schema (final rtm.5) as shipped by @microsoft/jest-sarif (MIT).
// (Its `language` pattern is not valid as a unicode regexp, hence unicodeRegExp: false.)
// It is a draft-04 document whose only draft-04-specific keyword is `id`; Ajv 8 reads it as draft-07 once `id` is `$id`.
export function sarifValidator() {
  const schema = JSON.parse(readFileSync('node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json', 'utf8')) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ allErrors: true, strict: false, unicodeRegExp: false });
  ajv.addFormat('uri', (v: string) => URL.canParse(v));
  ajv.addFormat('uri-reference', (v: string) => URL.canParse(v, 'http://base.invalid/') && !/\s/.test(v));
  ajv.addFormat('date-time', (v: string) => !Number.isNaN(Date.parse(v)));
  return ajv.compile({ $id: String(id), ...rest });
}

