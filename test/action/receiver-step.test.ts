import { describe, expect, it } from 'vitest';
import { startListening } from '../../src/action/receiver-step.js';
import { readContext } from '../../src/github/context.js';

const silent = { info: () => undefined, warning: () => undefined, error: () => undefined, debug: () => undefined };

describe('mode: listen inputs', () => {
  it('refuses a listen-port that is not a port, naming the input, before starting anything', async () => {
    for (const port of ['abc', '65536', '-1', '4318.5', '']) {
      await expect(startListening(port, readContext({}), null, silent)).rejects.toThrow(`input listen-port must be a port number (0 to 65535), not ${JSON.stringify(port)}`);
    }
  });
});
