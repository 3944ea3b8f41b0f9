import { afterAll } from 'vitest';
import { removeFoldersLeft } from './temp-folders.js';

// vitest.config.ts's setupFiles: run before each test file, also when the modules a
// worker loaded stay loaded from one file to the next (isolate: false), so a hook
// registered here (not in a shared module's top level, which runs once per worker)
// belongs to every file: the temporary folders a file made and left go when it ends.
afterAll(removeFoldersLeft);
