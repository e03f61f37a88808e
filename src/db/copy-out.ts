// A query's result as raw bytes: `COPY (…) TO STDOUT (FORMAT binary)` through pg-copy-streams. The `pg`
// driver decodes every field of an ordinary result into a JS string; a feed page is megabytes of stored
// JSON that the service only passes on, so it reads the bytes PostgreSQL sends and never decodes them.
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Sql } from 'sql-template-tag';

/**
 * `q` as one SQL text with its values written in as literals (COPY takes no bind parameters): strings
 * quoted and escaped, finite numbers in parentheses; anything else is refused.
 */
export function inlineSql(q: Sql): string {
  let out = q.strings[0];
  q.values.forEach((v, i) => {
    if (typeof v === 'string') out += pg.escapeLiteral(v);
    // In parentheses: `-5::int8` would cast 5 before negating it.
    else if (typeof v === 'number' && Number.isFinite(v)) out += `(${v})`;
    else throw new TypeError(`cannot write ${typeof v} into SQL text`);
    out += q.strings[i + 1];
  });
  return out;
}

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

/**
 * The rows of a binary COPY stream, each an array of its fields' bytes (views into `data`, null for
 * SQL NULL). Binary COPY sends text columns as their UTF-8 bytes, unescaped.
 */
export function readBinaryCopy(data: Buffer): (Buffer | null)[][] {
  if (data.length < 19 || !data.subarray(0, 11).equals(SIGNATURE))
    throw new Error('not a binary COPY stream');
  let at = 15 + 4 + data.readUInt32BE(15); // signature, flags, header extension
  const rows: (Buffer | null)[][] = [];
  for (;;) {
    const fields = data.readInt16BE(at);
    at += 2;
    if (fields === -1) return rows;
    const row: (Buffer | null)[] = new Array(fields);
    for (let f = 0; f < fields; f++) {
      const len = data.readInt32BE(at);
      at += 4;
      if (len < 0) row[f] = null;
      else {
        row[f] = data.subarray(at, at + len);
        at += len;
      }
    }
    rows.push(row);
  }
}

/** Runs `q` as a binary COPY on a client of `pool`: its rows as bytes. Errors are the query's own. */
export async function copyRows(pool: pg.Pool, q: Sql): Promise<(Buffer | null)[][]> {
  const text = `COPY (${inlineSql(q)}) TO STDOUT (FORMAT binary)`;
  const client = await pool.connect();
  const chunks: Buffer[] = [];
  try {
    const stream = client.query(copyTo(text));
    for await (const chunk of stream) chunks.push(chunk as Buffer);
  } catch (err) {
    // A connection that failed mid-copy is not handed out again.
    client.release(err as Error);
    throw err;
  }
  client.release();
  return readBinaryCopy(Buffer.concat(chunks));
}
