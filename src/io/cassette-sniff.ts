import { open } from 'node:fs/promises';

/** YAML files a folder may hold: only VCR cassettes among them are traces. */
export const YAML_FILE = /\.ya?ml$/i;

const SNIFF_BYTES = 4096;

/**
 * Whether a YAML file found in a folder is a VCR cassette (vcrpy, go-vcr v1 and v2,
 * Polly), read from its first 4 KiB: a top-level `interactions:` list (after go-vcr's
 * `version:` line) whose items hold a `request:`. Workflows, configuration and compose files have neither, so a
 * folder's other YAML is not taken for a trace. A file named directly is
 * never sniffed: its format is detected like any other.
 */
export async function isCassetteFile(path: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch {
    return false;
  }
  try {
    const head = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0);
    const text = head.subarray(0, bytesRead).toString('utf8').replace(/^\ufeff/, '').replace(/\r\n/g, '\n');
    const body = text.replace(/^(?:#[^\n]*\n|\s*\n)*(?:---[ \t]*\n)?/, '');
    return /^interactions:[ \t]*\n/m.test(body) && /^[ \t-]*request:[ \t]*\n/m.test(body);
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}
