import { FORMATS } from '../registry.js';
import type { TraceFormat } from '../types.js';
import { customFormat } from './custom-format.js';
import type { CustomFormatSpec } from './mapping.js';
import { loadYaml } from './yaml-sample.js';

export type { CustomFormatSpec } from './mapping.js';

const cache = new WeakMap<readonly CustomFormatSpec[], readonly TraceFormat[]>();

/**
 * The formats a file is detected among and --input-format names: the configured
 * ones (configuration order) before the built-in ones. Compiled once per list and
 * thread (a worker gets its own copy of the configuration, and compiles it once).
 */
export function formatsFor(custom: readonly CustomFormatSpec[] | undefined): readonly TraceFormat[] {
  if (custom === undefined || custom.length === 0) return FORMATS;
  let formats = cache.get(custom);
  if (formats === undefined) {
    formats = [...custom.map(customFormat), ...FORMATS];
    cache.set(custom, formats);
  }
  return formats;
}

/** `formatsFor`, ready to detect: a `layout: yaml` mapping's detect needs the yaml package loaded. */
export async function detectableFormats(custom: readonly CustomFormatSpec[] | undefined): Promise<readonly TraceFormat[]> {
  if (custom?.some((spec) => spec.layout === 'yaml' && spec.detect !== undefined)) await loadYaml();
  return formatsFor(custom);
}
