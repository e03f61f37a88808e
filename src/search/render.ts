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
 * The feeds make the same text in SQL (`itemSql` in feeds.ts); test/http/feeds.test.ts holds them equal.
 */
export function renderJob(row: JobRow): string {
  const at = row.doc.indexOf(PLACEHOLDER);
  let out =
    at < 0
      ? row.doc
      : row.doc.slice(0, at) + '"company":' + row.company + row.doc.slice(at + PLACEHOLDER.length);
  let extra = '';
  if (row.description != null) extra += `,"description":${row.description}`;
  if (row.openings !== undefined) extra += `,"openings":${row.openings}`;
  if (extra) out = out.slice(0, -1) + extra + '}';
  return out;
}

/** Column holding the JSON-encoded description for a format, or NULL. */
export function descriptionColumn(format: DescriptionFormat): string {
  if (format === 'text') return 'j.desc_text';
  if (format === 'html') return 'j.desc_html';
  return 'NULL::text';
}
