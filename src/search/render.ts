// The read path stitches stored JSON text together instead of building objects per request.
// A job's stored doc holds a `"company":null` placeholder; the company JSON is joined at read time.

export const PLACEHOLDER = '"company":null';

export type DescriptionFormat = 'text' | 'html' | undefined;

export interface JobRow {
  doc: string;
  company: string;
  description?: string | null;
  openings?: number;
}

/**
 * The job's public JSON. Ids and titles precede the placeholder and, being JSON strings, cannot contain it.
 * The feeds make the same text from bytes (`jobParts`); test/http/feeds.test.ts holds them equal.
 */
export function renderJob(row: JobRow): string {
  const pieces: string[] = [];
  jobPieces(row, pieces);
  return pieces.join('');
}

/**
 * The JSON array of `rows`, each as `renderJob` makes it, as UTF-8 bytes written straight into one
 * buffer. A page is ~100 kB: joining its pieces into a string and then encoding it made two more copies
 * of that size per request (bench/README.md, "Socket reads from the heap…"). The buffer has room before
 * and after the array for the response's envelope (`framed`), so the body is not one more copy.
 */
export function renderPage(rows: readonly JobRow[]): Buffer {
  const pieces: string[] = ['['];
  rows.forEach((row, i) => {
    if (i) pieces.push(',');
    jobPieces(row, pieces);
  });
  pieces.push(']');
  let bytes = 0;
  for (const p of pieces) bytes += Buffer.byteLength(p);
  return withRoom(bytes, (whole, start) => {
    let at = start;
    for (const p of pieces) at += whole.write(p, at);
    return at;
  });
}

/**
 * The JSON array of items given in pieces (the feeds' `jobParts`), copied into one buffer with room for
 * the envelope, as `renderPage` makes it. A page kept for clients that ask for it again then holds one
 * buffer instead of a view per piece: thousands of small objects a page, kept long enough to reach V8's old
 * generation, whose garbage set off a full collection every ~100 ms in each worker under the feeds' traffic
 * (bench/README.md, "The primary's young generation; feed pages kept as one buffer…").
 */
export function joinItems(items: readonly Buffer[][]): Buffer {
  let bytes = 2 + Math.max(0, items.length - 1);
  for (const item of items) for (const part of item) bytes += part.length;
  return withRoom(bytes, (whole, start) => {
    let at = start;
    whole[at++] = 0x5b; // [
    items.forEach((item, i) => {
      if (i) whole[at++] = 0x2c; // ,
      for (const part of item) at += part.copy(whole, at);
    });
    whole[at++] = 0x5d; // ]
    return at;
  });
}

// Room for the longest envelope head: a feed's `{"since":"<timestamp>","count":1000,"data":`.
const HEAD_ROOM = 96;
const TAIL_ROOM = 256;
/** Pages made by withRoom whose room is still free. */
const roomy = new WeakSet<Buffer>();

/**
 * `bytes` written by `write` (from the offset it is given; it returns where it stopped) into a buffer of
 * their own with room before and after for `framed`. Never from Node's shared pool: the bytes around the
 * page are its own.
 */
function withRoom(bytes: number, write: (whole: Buffer, at: number) => number): Buffer {
  const whole = Buffer.allocUnsafeSlow(HEAD_ROOM + bytes + TAIL_ROOM);
  const out = whole.subarray(HEAD_ROOM, write(whole, HEAD_ROOM));
  roomy.add(out);
  return out;
}

/**
 * `head`, `data` and `tail` as one buffer: written around `data` in its own buffer when renderPage or joinItems made it
 * and they fit (once per page: a second framing of the same bytes copies), else a copy of the three.
 */
export function framed(head: Buffer, data: Buffer, tail: Buffer): Buffer {
  if (roomy.delete(data) && head.length <= HEAD_ROOM && tail.length <= TAIL_ROOM) {
    const whole = Buffer.from(
      data.buffer,
      data.byteOffset - head.length,
      head.length + data.length + tail.length,
    );
    head.copy(whole, 0);
    tail.copy(whole, head.length + data.length);
    return whole;
  }
  return Buffer.concat([head, data, tail]);
}

/** Appends to `out` the pieces whose concatenation is `renderJob(row)`. */
function jobPieces(row: JobRow, out: string[]): void {
  const at = row.doc.indexOf(PLACEHOLDER);
  const doc =
    at < 0
      ? [row.doc]
      : [row.doc.slice(0, at), '"company":', row.company, row.doc.slice(at + PLACEHOLDER.length)];
  let extra = '';
  if (row.description != null) extra += `,"description":${row.description}`;
  if (row.openings !== undefined) extra += `,"openings":${row.openings}`;
  // The document ends with its object's `}`: what is added goes before it.
  if (extra) doc.push(doc.pop()!.slice(0, -1), extra, '}');
  out.push(...doc);
}

const PLACEHOLDER_BYTES = Buffer.from(PLACEHOLDER);
const COMPANY_KEY = Buffer.from('"company":');
const DESCRIPTION_KEY = Buffer.from(',"description":');
const CLOSE = Buffer.from('}');

/**
 * `renderJob` of a row read as bytes (the feeds): the pieces whose concatenation is the job's public
 * JSON, views into the row's own bytes, so an item is copied only into its response.
 */
export function jobParts(doc: Buffer, company: Buffer, description: Buffer | null): Buffer[] {
  const at = doc.indexOf(PLACEHOLDER_BYTES);
  const parts =
    at < 0 ? [doc] : [doc.subarray(0, at), COMPANY_KEY, company, doc.subarray(at + PLACEHOLDER_BYTES.length)];
  if (description === null) return parts;
  // The document ends with its object's `}` (one byte): the description goes before it.
  const last = parts.length - 1;
  parts[last] = parts[last].subarray(0, -1);
  parts.push(DESCRIPTION_KEY, description, CLOSE);
  return parts;
}

/** Column holding the JSON-encoded description for a format, or NULL. */
export function descriptionColumn(format: DescriptionFormat): string {
  if (format === 'text') return 'j.desc_text';
  if (format === 'html') return 'j.desc_html';
  return 'NULL::text';
}
