// Rendered jobs of the match index's pages, kept by description format and id at the data version they
// were read at: the rows of a page that an earlier page of the same version already read. A job's JSON is
// a function of the data alone, so a row read at a version (fromIndex checks the version of every row it
// reads) is that job at that version, whichever request asks; a newer read of the row replaces it. Pages
// of different searches share their newest rows: PostgreSQL's read of a page by id was the largest part
// of its time under varied searches (bench/README.md, "Rows of a page kept per data version").
//
// The rows are copied into slabs of a fixed size, and the oldest slab goes whole when the bound is
// reached: a row in a buffer of its own cost about twice its bytes (the allocator's chunk, the buffer's
// objects), and rows freed one by one left the allocator's heap in holes. A row asked for from the older
// half of the slabs is copied into the newest, so rows in use stay (the copy left behind is dead space).

export interface KeptRow {
  /** The job's public JSON, as renderJob makes it. */
  json: Buffer;
  /** Its position in posted order (the cursor of a page it ends). */
  pos: string;
}

interface Slab {
  buf: Buffer;
  used: number;
  /** Its place in the order slabs were made: the oldest goes first. */
  seq: number;
  /** The keys written into it (some since copied to a newer slab, or replaced). */
  keys: string[];
}

interface Entry {
  version: number;
  slab: Slab;
  at: number;
  length: number;
  pos: string;
}

/** The largest and smallest slab; a row larger than a quarter of one is not kept. */
const SLAB_MAX = 512 * 1024;
const SLAB_MIN = 16 * 1024;

export class RowCache {
  hits = 0;
  misses = 0;
  /** Rows are never carried to a newer version (a figure the page caches share). */
  readonly carried = 0;
  private entries = new Map<string, Entry>();
  private slabs: Slab[] = [];
  private seq = 0;
  private readonly slabBytes: number;

  constructor(private readonly maxBytes: number) {
    // At least eight slabs under the bound, so that dropping the oldest drops an eighth at most.
    this.slabBytes = Math.max(SLAB_MIN, Math.min(SLAB_MAX, 2 ** Math.floor(Math.log2(maxBytes / 8))));
  }

  /** The row of `key` read at `version`, if kept. */
  get(version: number, key: string): KeptRow | undefined {
    const e = this.entries.get(key);
    if (!e || e.version !== version) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    const newest = this.slabs[this.slabs.length - 1];
    if (e.slab !== newest && newest.seq - e.slab.seq >= this.slabs.length / 2) {
      const room = this.room(e.length);
      e.slab.buf.copy(room.slab.buf, room.at, e.at, e.at + e.length);
      room.slab.keys.push(key);
      e.slab = room.slab;
      e.at = room.at;
      // Making room may have dropped the slab the row was in, and the row's entry with it.
      this.entries.set(key, e);
    }
    return { json: e.slab.buf.subarray(e.at, e.at + e.length), pos: e.pos };
  }

  /**
   * Keeps `json` as the row of `key` read at `version` (unless a newer read of it is kept) and returns it
   * as a buffer.
   */
  put(version: number, key: string, json: string, pos: string): KeptRow {
    const length = Buffer.byteLength(json);
    const e = this.entries.get(key);
    if ((e && e.version > version) || length > this.slabBytes / 4) return { json: Buffer.from(json), pos };
    const { slab, at } = this.room(length);
    slab.buf.write(json, at);
    slab.keys.push(key);
    this.entries.set(key, { version, slab, at, length, pos });
    return { json: slab.buf.subarray(at, at + length), pos };
  }

  /** Bytes held by the slabs (the entries' own objects aside). */
  get size(): number {
    return this.slabs.length * this.slabBytes;
  }

  /** `length` bytes at the end of the newest slab, a new one made (and the oldest dropped) when full. */
  private room(length: number): { slab: Slab; at: number } {
    let slab = this.slabs[this.slabs.length - 1];
    if (!slab || slab.used + length > this.slabBytes) {
      slab = { buf: Buffer.allocUnsafeSlow(this.slabBytes), used: 0, seq: this.seq++, keys: [] };
      this.slabs.push(slab);
      while (this.slabs.length > 1 && this.slabs.length * this.slabBytes > this.maxBytes)
        this.drop(this.slabs.shift()!);
    }
    const at = slab.used;
    slab.used += length;
    return { slab, at };
  }

  /** Forgets the rows still in `slab` (a page holding one keeps its bytes until it is sent). */
  private drop(slab: Slab): void {
    for (const key of slab.keys) if (this.entries.get(key)?.slab === slab) this.entries.delete(key);
  }
}

export const rowCache = (maxBytes: number): RowCache => new RowCache(maxBytes);

/** The key of a row: its description format and id. */
export const rowKey = (format: string, id: string): string => `${format}|${id}`;
