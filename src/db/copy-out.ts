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
/** The header's fixed part: the signature, the flags and the length of its extension. */
const HEADER = SIGNATURE.length + 8;

/**
 * The rows of a binary COPY stream, read chunk by chunk as it arrives: each row an array of its fields'
 * bytes (null for SQL NULL). Binary COPY sends text columns as their UTF-8 bytes, unescaped. A row that
 * lies within one chunk is read as views into that chunk; only a row split between chunks is copied, into
 * a buffer of its own, so a page of megabytes is never gathered into one buffer first.
 */
export class BinaryCopyReader {
  readonly rows: (Buffer | null)[][] = [];
  /** Bytes received and not yet read: the start of a header or a row that is not complete yet. */
  private held: Buffer[] = [];
  private heldLength = 0;
  private headerRead = false;
  private ended = false;

  push(chunk: Buffer): void {
    if (this.ended) {
      if (chunk.length > 0) throw new Error('binary COPY stream: bytes after its end');
      return;
    }
    this.held.push(chunk);
    this.heldLength += chunk.length;
    for (let n = this.nextLength(); n !== undefined && !this.ended; n = this.nextLength())
      this.read(this.take(n));
  }

  /** The rows, once the stream's trailer was read; a stream cut short is an error. */
  end(): (Buffer | null)[][] {
    if (!this.ended || this.heldLength > 0) throw new Error('binary COPY stream cut short');
    return this.rows;
  }

  /** Byte `i` of the held bytes, or undefined when fewer have arrived. */
  private byte(i: number): number | undefined {
    for (const b of this.held) {
      if (i < b.length) return b[i];
      i -= b.length;
    }
    return undefined;
  }

  /** The big-endian unsigned integer of `size` bytes at `at` of the held bytes, if they have arrived. */
  private uint(at: number, size: 2 | 4): number | undefined {
    if (at + size > this.heldLength) return undefined;
    let v = 0;
    for (let i = 0; i < size; i++) v = v * 256 + this.byte(at + i)!;
    return v;
  }

  /** The length of the header or row that the held bytes start with, once that is known to have arrived. */
  private nextLength(): number | undefined {
    if (!this.headerRead) {
      if (this.heldLength >= SIGNATURE.length && SIGNATURE.some((c, i) => this.byte(i) !== c))
        throw new Error('not a binary COPY stream');
      const extension = this.uint(HEADER - 4, 4);
      return extension !== undefined && HEADER + extension <= this.heldLength
        ? HEADER + extension
        : undefined;
    }
    const fields = this.uint(0, 2);
    if (fields === undefined) return undefined;
    if (fields === 0xffff) return 2; // the trailer: -1 fields
    let at = 2;
    for (let f = 0; f < fields; f++) {
      const len = this.uint(at, 4);
      if (len === undefined) return undefined;
      at += 4 + (len === 0xffffffff ? 0 : len); // -1: NULL
    }
    return at <= this.heldLength ? at : undefined;
  }

  /** The first `n` held bytes as one buffer: a view when they lie in one chunk, else a copy. */
  private take(n: number): Buffer {
    const first = this.held[0]!;
    let unit: Buffer;
    if (first.length >= n) unit = first.subarray(0, n);
    else unit = Buffer.concat(this.held, n);
    let left = n;
    while (left > 0) {
      const b = this.held[0]!;
      if (b.length > left) {
        this.held[0] = b.subarray(left);
        break;
      }
      this.held.shift();
      left -= b.length;
    }
    this.heldLength -= n;
    return unit;
  }

  private read(unit: Buffer): void {
    if (!this.headerRead) {
      this.headerRead = true; // its signature was checked as it arrived
      return;
    }
    const fields = unit.readInt16BE(0);
    if (fields === -1) {
      this.ended = true;
      return;
    }
    const row: (Buffer | null)[] = new Array(fields);
    let at = 2;
    for (let f = 0; f < fields; f++) {
      const len = unit.readInt32BE(at);
      at += 4;
      if (len < 0) row[f] = null;
      else {
        row[f] = unit.subarray(at, at + len);
        at += len;
      }
    }
    this.rows.push(row);
  }
}

/** The rows of a whole binary COPY stream (`BinaryCopyReader`). */
export function readBinaryCopy(data: Buffer): (Buffer | null)[][] {
  const reader = new BinaryCopyReader();
  reader.push(data);
  return reader.end();
}

/** Runs `q` as a binary COPY on a client of `pool`: its rows as bytes. Errors are the query's own. */
export async function copyRows(pool: pg.Pool, q: Sql): Promise<(Buffer | null)[][]> {
  const text = `COPY (${inlineSql(q)}) TO STDOUT (FORMAT binary)`;
  const client = await pool.connect();
  const reader = new BinaryCopyReader();
  try {
    const stream = client.query(copyTo(text));
    for await (const chunk of stream) reader.push(chunk as Buffer);
  } catch (err) {
    // A connection that failed mid-copy is not handed out again.
    client.release(err as Error);
    throw err;
  }
  client.release();
  return reader.end();
}
