// Rows read as bytes through binary COPY: values written into the SQL text come back exactly, NULLs
// stay NULL, and a result spread over many network chunks is read whole, wherever the chunks split it;
// errors are the query's own.
import fc from 'fast-check';
import pg from 'pg';
import { join } from 'sql-template-tag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryCopyReader, copyRows, inlineSql, readBinaryCopy } from '../../src/db/copy-out.ts';
import { isTimeoutOrConnectionError } from '../../src/db/pool.ts';
import { sql } from '../../src/search/sql.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';

let db: TestDb;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => {
  await db?.close();
});

describe('copyRows', () => {
  it('returns any string written into the SQL text as its UTF-8 bytes', async () => {
    // No NUL: PostgreSQL text cannot hold it.
    const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 5 }), fc.integer(), async (values, n) => {
        const rows = await copyRows(
          db.read,
          sql`SELECT v, ${n}::int8::text FROM unnest(ARRAY[${join(values.map((v) => sql`${v}::text`))}]) v`,
        );
        expect(rows.map((r) => r[0]?.toString())).toEqual(values);
        expect(rows.every((r) => r[1]?.toString() === String(n))).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps NULLs and reads a result of many chunks whole', async () => {
    const rows = await copyRows(
      db.read,
      sql`SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE repeat('é', i % 2000) END, i::text AS n
          FROM generate_series(1, ${5000}) i ORDER BY i`,
    );
    expect(rows).toHaveLength(5000);
    for (const [i, r] of rows.entries()) {
      const n = i + 1;
      expect(r[1]?.toString()).toBe(String(n));
      if (n % 7 === 0) expect(r[0]).toBeNull();
      else expect(r[0]?.toString()).toBe('é'.repeat(n % 2000));
    }
  });

  it("fails with the query's own error, and the pool stays usable", async () => {
    await expect(copyRows(db.read, sql`SELECT 1/0`)).rejects.toMatchObject({ code: '22012' });
    // An error after rows were already sent, mid-stream.
    await expect(
      copyRows(db.read, sql`SELECT repeat('x', 1000), 1/(3000 - i) FROM generate_series(1, ${4000}) i`),
    ).rejects.toMatchObject({ code: '22012' });
    const quick = new pg.Pool({ connectionString: db.url, max: 1, statement_timeout: 100 });
    try {
      await expect(copyRows(quick, sql`SELECT pg_sleep(5)`)).rejects.toSatisfy(isTimeoutOrConnectionError);
      expect((await copyRows(quick, sql`SELECT 'ok'`))[0][0]?.toString()).toBe('ok');
    } finally {
      await quick.end();
    }
    expect((await copyRows(db.read, sql`SELECT 'ok'`))[0][0]?.toString()).toBe('ok');
  });

  it('refuses values it cannot write as literals, and input that is not binary COPY', () => {
    expect(() => inlineSql(sql`SELECT ${Number.NaN}`)).toThrow(TypeError);
    expect(() => inlineSql(sql`SELECT ${{}}`)).toThrow(TypeError);
    expect(inlineSql(sql`SELECT ${"it's"}, ${2.5}`)).toBe("SELECT 'it''s', (2.5)");
    expect(inlineSql(sql`SELECT ${'back\\slash'}`)).toBe("SELECT  E'back\\\\slash'");
    expect(() => readBinaryCopy(Buffer.from('not copy at all, certainly'))).toThrow();
  });
});

/** A binary COPY stream of `rows`, as PostgreSQL writes one (with a header extension of `ext` bytes). */
function copyStream(rows: (Uint8Array | null)[][], ext: number): Buffer {
  const parts: Buffer[] = [Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(4)];
  const u32 = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(n);
    return b;
  };
  parts.push(u32(ext), Buffer.alloc(ext, 7));
  for (const row of rows) {
    const head = Buffer.alloc(2);
    head.writeInt16BE(row.length);
    parts.push(head);
    for (const f of row) parts.push(...(f === null ? [u32(-1)] : [u32(f.length), Buffer.from(f)]));
  }
  parts.push(Buffer.from([0xff, 0xff]));
  return Buffer.concat(parts);
}

describe('BinaryCopyReader', () => {
  const field = fc.option(fc.uint8Array({ maxLength: 40 }), { nil: null, freq: 4 });
  const rows = fc.array(fc.array(field, { minLength: 1, maxLength: 5 }), { maxLength: 12 });

  it('reads the same rows however the stream is cut into chunks', () => {
    fc.assert(
      fc.property(rows, fc.nat(6), fc.array(fc.nat(400), { maxLength: 30 }), (want, ext, cuts) => {
        const data = copyStream(want, ext);
        const reader = new BinaryCopyReader();
        let at = 0;
        for (const cut of [...cuts.map((c) => c % (data.length + 1))].sort((a, b) => a - b)) {
          reader.push(data.subarray(at, Math.max(at, cut)));
          at = Math.max(at, cut);
        }
        reader.push(data.subarray(at));
        const got = reader.end().map((r) => r.map((f) => (f === null ? null : [...f])));
        expect(got).toEqual(want.map((r) => r.map((f) => (f === null ? null : [...f]))));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a stream cut short, and bytes after its end', () => {
    const data = copyStream([[Buffer.from('abc'), null]], 0);
    for (let n = 0; n < data.length; n++) {
      const reader = new BinaryCopyReader();
      reader.push(data.subarray(0, n));
      expect(() => reader.end()).toThrow(/cut short/);
    }
    const reader = new BinaryCopyReader();
    reader.push(data);
    expect(() => reader.push(Buffer.from('x'))).toThrow(/after its end/);
    expect(() => readBinaryCopy(Buffer.concat([data, Buffer.from('x')]))).toThrow(/cut short/);
  });
});
