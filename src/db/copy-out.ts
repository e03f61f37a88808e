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
/** The signature, the flags and the length of the header extension. */
const HEADER = 19;

/**
 * The rows of a binary COPY stream, read chunk by chunk as they arrive: each row an array of its
 * fields' bytes (null for SQL NULL). Binary COPY sends text columns as their UTF-8 bytes, unescaped.
 * Fields are views into the chunks; only a row split between chunks is copied, once, so a page of
 * megabytes is never joined into one buffer first.
 */
export class BinaryCopyReader {
  readonly rows: (Buffer | null)[][] = [];
  /** Bytes received and not parsed yet: the part of a row (or of the header) that the chunks split. */
  private unread: Buffer[] = [];
  private offset = 0;
  private unreadLength = 0;
  private header = true;
  private ended = false;

  push(chunk: Buffer): void {
    if (this.ended) {
      if (chunk.length) throw new Error('binary COPY stream: bytes after its trailer');
      return;
    }
    this.unread.push(chunk);
    this.unreadLength += chunk.length;
    if (this.header) {
      if (this.unreadLength < HEADER) return;
      const start = this.peek(HEADER);
      if (!start.subarray(0, SIGNATURE.length).equals(SIGNATURE)) throw new Error('not a binary COPY stream');
      const size = HEADER + start.readUInt32BE(15);
      if (this.unreadLength < size) return;
      this.take(size);
      this.header = false;
    }
    for (;;) {
      const size = this.rowSize();
      if (size < 0) return;
      const row = this.take(size);
      const fields = row.readInt16BE(0);
      if (fields === -1) {
        this.ended = true;
        if (this.unreadLength) throw new Error('binary COPY stream: bytes after its trailer');
        return;
      }
      const out: (Buffer | null)[] = new Array(fields);
      let at = 2;
      for (let f = 0; f < fields; f++) {
        const len = row.readInt32BE(at);
        at += 4;
        if (len < 0) out[f] = null;
        else {
          out[f] = row.subarray(at, at + len);
          at += len;
        }
      }
      this.rows.push(out);
    }
  }

  /** The rows, once the whole stream was pushed. */
  end(): (Buffer | null)[][] {
    if (!this.ended) throw new Error('binary COPY stream ended before its trailer');
    return this.rows;
  }

  /** The size of the next row (or of the trailer), or -1 when it has not arrived whole. */
  private rowSize(): number {
    if (this.unreadLength < 2) return -1;
    const fields = this.int(0, 2);
    if (fields === 0xffff) return 2;
    let size = 2;
    for (let f = 0; f < fields; f++) {
      if (this.unreadLength < size + 4) return -1;
      const len = this.int(size, 4) | 0;
      size += 4 + Math.max(len, 0);
    }
    return size <= this.unreadLength ? size : -1;
  }

  /** The unsigned big-endian integer of `bytes` bytes at `at` in the unread bytes. */
  private int(at: number, bytes: number): number {
    let n = 0;
    for (let i = 0; i < bytes; i++) n = n * 256 + this.byte(at + i);
    return n;
  }

  private byte(at: number): number {
    let i = this.offset + at;
    for (const chunk of this.unread) {
      if (i < chunk.length) return chunk[i];
      i -= chunk.length;
    }
    throw new RangeError('binary COPY stream: read past the bytes received');
  }

  /** The first `n` unread bytes, left unread: a view when one chunk holds them, else a copy. */
  private peek(n: number): Buffer {
    const first = this.unread[0];
    if (this.offset + n <= first.length) return first.subarray(this.offset, this.offset + n);
    const out = Buffer.allocUnsafe(n);
    let filled = 0;
    let from = this.offset;
    for (const chunk of this.unread) {
      filled += chunk.copy(out, filled, from, Math.min(chunk.length, from + n - filled));
      from = 0;
      if (filled === n) break;
    }
    return out;
  }

  /** The first `n` unread bytes, consumed. */
  private take(n: number): Buffer {
    const out = this.peek(n);
    this.unreadLength -= n;
    let left = this.offset + n;
    while (this.unread.length && left >= this.unread[0].length) left -= this.unread.shift()!.length;
    this.offset = left;
    return out;
  }
}

/** Runs `q` as a binary COPY on a client of `pool`: its rows as bytes. Errors are the query's own. */
export async function copyRows(pool: pg.Pool, q: Sql): Promise<(Buffer | null)[][]> {
  const text = `COPY (${inlineSql(q)}) TO STDOUT (FORMAT binary)`;
  const client = await pool.connect();
  const rows = new BinaryCopyReader();
  try {
    const stream = client.query(copyTo(text));
    for await (const chunk of stream) rows.push(chunk as Buffer);
  } catch (err) {
    // A connection that failed mid-copy is not handed out again.
    client.release(err as Error);
    throw err;
  }
  client.release();
  return rows.end();
}
