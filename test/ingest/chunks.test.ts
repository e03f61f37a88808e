import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CanonicalLine } from '../../src/model/record.ts';
import { ingestChunks, type LineChunk } from '../../src/ingest/pipeline.ts';
import { validateLine } from '../../src/ingest/validate.ts';
import { prepareDatabase } from '../../src/service/setup.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
  await prepareDatabase(db);
});
afterAll(async () => {
  await db.drop();
});

const posting = (i: number): CanonicalLine =>
  validateLine({
    kind: 'posting',
    id: `lever:chunk-${i}`,
    source: 'lever',
    title: `Role ${i}`,
    company: { name: 'Acme Tools', domain: 'acme.example' },
    url: `https://acme.example/jobs/${i}`,
  });
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => posting(from + k));

describe('a load read in chunks', () => {
  it('prepares the next chunk while the one before is written, and waits for a chunk of companies', async () => {
    const events: string[] = [];
    const chunks: LineChunk[] = [
      { lines: range(0, 700) },
      {
        lines: [
          validateLine({ kind: 'company', slug: 'acme-tools', name: 'Acme Tools', domain: 'acme.example' }),
          ...range(700, 1000),
        ],
      },
      { lines: range(1000, 1600) },
    ];
    chunks.forEach((c, k) => {
      c.done = () => events.push(`done ${k}`);
    });
    async function* read() {
      for (const [k, c] of chunks.entries()) {
        events.push(`read ${k}`);
        yield c;
      }
    }
    let written = 0;
    const report = await ingestChunks(db, read(), undefined, (n) => {
      written += n;
    });
    expect(report.inserted).toBe(1600);
    expect(written).toBe(1600);
    // Chunks counted from 0. Chunk 2 (postings only) is read while chunk 1's last batch is still being
    // written: its first batch is prepared meanwhile. Every chunk is reported once written, in order.
    expect(events).toEqual(['read 0', 'read 1', 'done 0', 'read 2', 'done 1', 'done 2']);
    // The postings before the company's line did not resolve to it; those after it did, the chunk of
    // companies having been written before its postings were prepared.
    const { rows } = await db.write.query<{ n: number; slug: string | null }>(
      `SELECT company_slug AS slug, count(*)::int AS n FROM jobs WHERE id LIKE 'lever:chunk-%'
        GROUP BY 1 ORDER BY 1 NULLS FIRST`,
    );
    expect(rows).toEqual([
      { slug: null, n: 700 },
      { slug: 'acme-tools', n: 900 },
    ]);
  });
});
