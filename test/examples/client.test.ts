// The typed client's generated types match the document the service serves (regenerate them with
// `npm run client:generate` when the document changes).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientTypes, SCHEMA_FILE, servedDocument } from '../../scripts/client.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sample: false });
});
afterAll(async () => {
  await t?.close();
});

describe('examples/client', () => {
  it('is generated from the document the service serves, and is up to date', async () => {
    const live = (await t.get('/openapi.json')).json();
    expect(servedDocument()).toEqual(live);
    const fresh = await clientTypes(live);
    expect(
      fresh === readFileSync(SCHEMA_FILE, 'utf8'),
      'examples/client/schema.ts is stale: run npm run client:generate',
    ).toBe(true);
  });
});
