// The service as `npm start` runs it: the compiled entry (built once per run by test/global-setup.ts).
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const SERVICE_ENTRY = path.join(ROOT, 'dist/main.js');
