import { afterAll } from 'vitest';
import { removeTempDataDirs } from './spawn-server.ts';

// A setup file of the API tests: its afterAll runs after the test file's own (which stop the
// servers), so the data folders the file made go with it.
afterAll(() => removeTempDataDirs());
