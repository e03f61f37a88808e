// The parameter tables of the spec and the registry agree: every parameter the spec lists for an
// endpoint is known to the registry (and validated), and the registry invents none.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Endpoint, endpointParams, jobFilterParams } from '../../src/http/params/registry.ts';

const SPEC = fs.readFileSync(new URL('../../docs/SPEC.md', import.meta.url), 'utf8');

/** The body of the `### GET <path>` section. */
function section(path: string): string {
  const lines = SPEC.split('\n');
  const start = lines.findIndex((l) => l.trim() === `### GET ${path}`);
  if (start < 0) throw new Error(`no section for ${path}`);
  const end = lines.findIndex((l, i) => i > start && /^#{1,3} /.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

/** Rows of the tables whose header starts with "Parameter", as header name → cell. */
function parameterRows(body: string): Record<string, string>[] {
  const out: Record<string, string>[] = [];
  let header: string[] | null = null;
  let inTable = false;
  for (const line of body.split('\n')) {
    if (!line.trim().startsWith('|')) {
      inTable = false;
      header = null;
      continue;
    }
    const row = cells(line);
    if (!inTable) {
      inTable = true;
      header = row;
      continue;
    }
    if (row.every((c) => /^:?-+:?$/.test(c))) continue;
    if (header && header[0] === 'Parameter') {
      out.push(Object.fromEntries(header.map((h, i) => [h, row[i] ?? ''])));
    }
  }
  return out;
}

function specParams(path: string): string[] {
  return parameterRows(section(path))
    .filter((r) => !r.In || r.In === 'query')
    .map((r) => r.Parameter.replace(/`/g, ''));
}

const ENDPOINTS: [string, Endpoint, number][] = [
  ['/v1/jobs', 'jobs', 40],
  ['/v1/jobs/feed', 'feed', 5],
  ['/v1/jobs/modified', 'modified', 5],
  ['/v1/jobs/expired', 'expired', 4],
  ['/v1/jobs/{id}', 'job', 1],
  ['/v1/companies', 'companies', 9],
];

const registryNames = (e: Endpoint) => (endpointParams[e] as { name: string }[]).map((p) => p.name);

describe('spec parameter tables vs the registry', () => {
  for (const [path, endpoint, atLeast] of ENDPOINTS) {
    it(`${path}: every listed parameter is known to the registry`, () => {
      const listed = specParams(path);
      expect(listed.length).toBeGreaterThanOrEqual(atLeast);
      for (const name of listed) expect(name).toMatch(/^[a-z_]+$/);
      const known = new Set(registryNames(endpoint));
      expect(listed.filter((n) => !known.has(n))).toEqual([]);
    });

    it(`${path}: the registry has no parameter the spec does not list`, () => {
      const listed = new Set(specParams(path));
      expect(registryNames(endpoint).filter((n) => !listed.has(n))).toEqual([]);
    });
  }

  it('/v1/jobs/count takes the same filter set as /v1/jobs', () => {
    const count = new Set(registryNames('count'));
    for (const p of jobFilterParams) expect(count.has(p.name), p.name).toBe(true);
    const jobs = new Set(specParams('/v1/jobs'));
    for (const name of ['limit', 'offset', 'cursor', 'description_format']) {
      expect(jobs.has(name)).toBe(true);
      expect(count.has(name), name).toBe(false);
    }
  });

  it('/v1/companies/{slug} takes no query parameters', () => {
    expect(registryNames('company')).toEqual([]);
  });

  it('the traps named by the spec are not parameters anywhere', () => {
    for (const trap of ['location', 'salary_min', 'posted_since']) {
      expect(SPEC).toContain(`\`${trap}\``);
      for (const e of Object.keys(endpointParams) as Endpoint[]) expect(registryNames(e)).not.toContain(trap);
    }
  });

  it('every registry parameter has a description', () => {
    for (const e of Object.keys(endpointParams) as Endpoint[]) {
      for (const p of endpointParams[e] as { name: string; description: string }[]) {
        expect(p.description.length, `${e}.${p.name}`).toBeGreaterThan(10);
      }
    }
  });
});
