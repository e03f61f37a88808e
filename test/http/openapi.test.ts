import { validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointParams } from '../../src/http/params/registry.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ sample: false });
});
afterAll(async () => {
  await t.close();
});

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = (await t.app.fastify.inject({ url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid ? [] : result.errors).toEqual([]);
  });

  it('lists every path of the spec and every parameter the registry knows, each described', async () => {
    const doc = (await t.app.fastify.inject({ url: '/openapi.json' })).json();
    const paths: Record<string, keyof typeof endpointParams | null> = {
      '/v1/jobs': 'jobs',
      '/v1/jobs/count': 'count',
      '/v1/jobs/feed': 'feed',
      '/v1/jobs/expired': 'expired',
      '/v1/jobs/modified': 'modified',
      '/v1/jobs/{id}': 'job',
      '/v1/jobs/facets': 'facets',
      '/v1/jobs/salary': 'salary',
      '/v1/jobs/trends': 'trends',
      '/v1/jobs/{id}/history': 'history',
      '/v1/sources': 'sources',
      '/v1/companies': 'companies',
      '/v1/companies/{slug}': 'company',
      '/v1/meta': null,
      '/v1/health': null,
      '/openapi.json': null,
    };
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(paths).sort());
    for (const [path, endpoint] of Object.entries(paths)) {
      const params: { name: string; description?: string }[] = doc.paths[path].get.parameters ?? [];
      for (const p of params) expect(p.description, `${path} ${p.name}`).toBeTruthy();
      if (!endpoint) continue;
      const names = params.map((p) => p.name);
      for (const def of endpointParams[endpoint]) expect(names, path).toContain(def.name);
    }
  });
});
