// Rendered jobs of the match index's pages, kept per data version (versioned-cache.ts) by description
// format and id: the rows of a page that an earlier page of the same version already read. A job's JSON is
// a function of the data alone, so a row read at a version (fromIndex checks the version of every row it
// reads) is that job at that version, whichever request asks. Pages of different searches share their
// newest rows: PostgreSQL's read of a page by id was the largest part of its time under varied searches
// (bench/README.md, "Rows of a page kept per data version").
import { VersionedCache } from './versioned-cache.ts';

export interface KeptRow {
  /** The job's public JSON, as renderJob makes it. */
  json: Buffer;
  /** Its position in posted order (the cursor of a page it ends). */
  pos: string;
}

export type RowCache = VersionedCache<KeptRow>;

/** Bytes an entry costs beyond its JSON and its key: the objects and the maps' slots. */
const OVERHEAD = 200;

export function rowCache(maxBytes: number): RowCache {
  return new VersionedCache<KeptRow>(maxBytes, (r) => r.json.length + 2 * r.pos.length + OVERHEAD);
}

/** The key of a row: its description format and id. */
export const rowKey = (format: string, id: string): string => `${format}|${id}`;

/**
 * A row as kept: its JSON in a buffer of its own, not a slice of Node's shared pool (a kept slice would
 * pin the pool's whole slab).
 */
export function keptRow(json: string, pos: string): KeptRow {
  const b = Buffer.allocUnsafeSlow(Buffer.byteLength(json));
  b.write(json);
  return { json: b, pos };
}
