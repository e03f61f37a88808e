// Rows read as bytes through binary COPY: values written into the SQL text come back exactly, NULLs
// stay NULL, and a result spread over many network chunks is read whole; errors are the query's own.
import fc from 'fast-check';
import pg from 'pg';
import { join } from 'sql-template-tag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyRows, inlineSql, readBinaryCopy } from '../../src/db/copy-out.ts';
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
    expect(() => readBinaryCopy([Buffer.from('not copy at all, certainly')])).toThrow();
    expect(() => readBinaryCopy([])).toThrow('not a binary COPY stream');
  });
});

describe('readBinaryCopy', () => {
  /** A binary COPY stream of `rows` (null: SQL NULL), as PostgreSQL writes it. */
  const stream = (rows: (Uint8Array | null)[][], extension: Uint8Array): Buffer => {
    const int = (n: number, bytes: 2 | 4) => {
      const b = Buffer.alloc(bytes);
      if (bytes === 2) b.writeInt16BE(n);
      else b.writeInt32BE(n);
      return b;
    };
    const parts = [
      Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'),
      int(0, 4),
      int(extension.length, 4),
      extension,
    ];
    for (const row of rows) {
      parts.push(int(row.length, 2));
      for (const f of row) parts.push(...(f === null ? [int(-1, 4)] : [int(f.length, 4), f]));
    }
    parts.push(int(-1, 2));
    return Buffer.concat(parts);
  };

  it('reads the same rows whatever chunks the stream arrives in', () => {
    const field = fc.option(fc.uint8Array({ maxLength: 12 }), { freq: 4 });
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { maxLength: 4 }), { maxLength: 6 }),
        fc.uint8Array({ maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (rows, extension, cuts) => {
          const whole = stream(rows, extension);
          const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...at].map((from, i) => whole.subarray(from, [...at, whole.length][i]));
          const read = readBinaryCopy(chunks).map((row) => row.map((f) => f && [...f]));
          expect(read).toEqual(rows.map((row) => row.map((f) => f && [...f])));
        },
      ),
    );
  });

  it('refuses a stream that ends too soon, wherever it is cut', () => {
    const whole = stream([[Buffer.from('abc'), null]], new Uint8Array(0));
    for (let n = 0; n < whole.length; n++)
      expect(() => readBinaryCopy([whole.subarray(0, n)]), `cut at ${n}`).toThrow();
  });
});
