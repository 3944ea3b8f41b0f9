import { readWhole } from '../read/read-whole.js';
import { Evidence, type DetectSample, type TraceFormat } from '../types.js';
import { parseCassette } from './index.js';
import { cassetteProvider, looksLikeCassette } from './signature.js';

/**
 * A format that reads only the cassettes (vcrpy or go-vcr) of one API, claimed by the
 * addresses they recorded (cassetteProvider): the whole file is parsed as YAML, within
 * max-document-bytes, else one finding naming the limit.
 */
export function cassetteFormat(id: string, description: string, provider: ReturnType<typeof cassetteProvider>): TraceFormat {
  return {
    id,
    description,
    detect(sample: DetectSample): number {
      return looksLikeCassette(sample.head) && cassetteProvider(sample.head) === provider ? Evidence.signature : Evidence.none;
    },
    async parse(input, sink) {
      const bytes = await readWhole(input, sink, 'a cassette');
      if (bytes !== null) await parseCassette(bytes.toString('utf8'), input.file, sink, input.limits);
    },
  };
}
