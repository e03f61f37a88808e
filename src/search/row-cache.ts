// Rendered jobs of the newest data version, by id and description format: the rows of a match index's
// page that an earlier page of the same version already read. A job's JSON is a function of the data
// alone, so a row read at a version (fromIndex checks the version of every row it reads) is that job at
// that version, whichever request asks; a look-up at another version misses, and the first one at a
// newer version empties the cache. Pages of different searches share their newest rows: PostgreSQL's
// read of a page by id was the largest part of its time under varied searches (bench/README.md,
// "Rows of a page kept per data version").
//
// Each row is one buffer of its own (not a slice of Node's shared pool, which a kept slice would pin);
// bounded by their bytes, the least recently used going first.

export interface KeptRow {
  /** The job's public JSON, as renderJob makes it. */
  json: Buffer;
  /** Its position in posted order (the cursor of a page it ends). */
  pos: string;
}

/** Bytes an entry costs beyond its JSON: its key, the objects and the map's slot. */
const OVERHEAD = 160;

export class RowCache {
  private version = -1;
  private map = new Map<string, KeptRow>();
  private bytes = 0;
  hits = 0;
  misses = 0;
  /** No row is carried across versions (the page-cache figures' third field). */
  readonly carried = 0;

  constructor(private readonly maxBytes: number) {}

  get size(): number {
    return this.bytes;
  }

  /** The row of `id` in `format` at `version`, when kept. */
  get(version: number, format: string, id: string): KeptRow | undefined {
    const k = `${format}|${id}`;
    const kept = version === this.version ? this.map.get(k) : undefined;
    if (!kept) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    // Re-insert: the map's order is the eviction order.
    this.map.delete(k);
    this.map.set(k, kept);
    return kept;
  }

  /** Keeps the row of `id` read at `version`; a newer version replaces every row kept. */
  put(version: number, format: string, id: string, json: string, pos: string): KeptRow {
    const row = { json: ownBuffer(json), pos };
    if (version < this.version) return row;
    if (version > this.version) {
      this.map.clear();
      this.bytes = 0;
      this.version = version;
    }
    const k = `${format}|${id}`;
    const old = this.map.get(k);
    if (old) {
      this.map.delete(k);
      this.bytes -= cost(k, old);
    }
    this.map.set(k, row);
    this.bytes += cost(k, row);
    while (this.bytes > this.maxBytes) {
      const [oldest, value] = this.map.entries().next().value!;
      this.map.delete(oldest);
      this.bytes -= cost(oldest, value);
    }
    return row;
  }
}

function cost(key: string, row: KeptRow): number {
  return row.json.length + 2 * (key.length + row.pos.length) + OVERHEAD;
}

function ownBuffer(s: string): Buffer {
  const b = Buffer.allocUnsafeSlow(Buffer.byteLength(s));
  b.write(s);
  return b;
}
