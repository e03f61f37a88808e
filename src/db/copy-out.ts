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
 * The rows of a binary COPY stream as it arrived, in chunks, each row an array of its fields' bytes (null
 * for SQL NULL): a view into its chunk, or a copy of its pieces for a field that spans chunks. The chunks
 * are not joined first: that was a copy of the whole page (megabytes for a feed page of 1,000) made only to
 * be copied again into the response. Binary COPY sends text columns as their UTF-8 bytes, unescaped.
 */
export function readBinaryCopy(chunks: readonly Buffer[]): (Buffer | null)[][] {
  const r = new ChunkReader(chunks);
  try {
    if (!r.take(11).equals(SIGNATURE)) throw new Error();
    r.int(4); // flags
    r.take(r.int(4)); // header extension
  } catch {
    throw new Error('not a binary COPY stream');
  }
  const rows: (Buffer | null)[][] = [];
  for (;;) {
    const fields = r.int(2);
    if (fields === -1) return rows;
    const row: (Buffer | null)[] = new Array(fields);
    for (let f = 0; f < fields; f++) {
      const len = r.int(4);
      row[f] = len < 0 ? null : r.take(len);
    }
    rows.push(row);
  }
}

/** Reads bytes one after the other across the chunks of a stream. */
class ChunkReader {
  private i = 0;
  private at = 0;

  constructor(private readonly chunks: readonly Buffer[]) {}

  /** The chunk the next byte is in (past the ones read to their end). */
  private chunk(): Buffer {
    while (this.i < this.chunks.length && this.at === this.chunks[this.i].length) {
      this.i++;
      this.at = 0;
    }
    const c = this.chunks[this.i];
    if (!c) throw new Error('binary COPY stream ends too soon');
    return c;
  }

  take(n: number): Buffer {
    if (n === 0) return Buffer.alloc(0);
    let c = this.chunk();
    if (this.at + n <= c.length) {
      this.at += n;
      return c.subarray(this.at - n, this.at);
    }
    const out = Buffer.allocUnsafe(n);
    for (let got = 0; ; c = this.chunk()) {
      const k = Math.min(n - got, c.length - this.at);
      c.copy(out, got, this.at, this.at + k);
      got += k;
      this.at += k;
      if (got === n) return out;
    }
  }

  /** A big-endian signed integer of 2 or 4 bytes. */
  int(bytes: 2 | 4): number {
    let c = this.chunk();
    let at = this.at;
    if (at + bytes <= c.length) this.at += bytes;
    else {
      c = this.take(bytes);
      at = 0;
    }
    return bytes === 2 ? c.readInt16BE(at) : c.readInt32BE(at);
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
  return readBinaryCopy(chunks);
}
