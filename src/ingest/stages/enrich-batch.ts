// The pure part of loading a batch of postings: source checks, enrichment and the description
// signature. No database and no shared state, so it can run on another thread (src/ingest/enrich-thread.ts)
// while the writer is busy with the previous batch.
import type { SourceRow } from '../../db/companies-write.ts';
import { enrichPosting } from '../../enrich/posting.ts';
import type { PostingRecord } from '../../model/record.ts';
import { emptyReport, type IngestReport } from '../report.ts';
import { simhash } from './row.ts';

export interface PostingItem {
  rec: PostingRecord;
  line?: number;
}

export interface EnrichedItem {
  rec: PostingRecord;
  line?: number;
  source: SourceRow;
  e: ReturnType<typeof enrichPosting>;
  /** SimHash of the plain description (see simhash). */
  sig: string;
}

export interface EnrichedBatch {
  report: IngestReport;
  enriched: EnrichedItem[];
}

/** Enriches batches: in this thread, or on a worker thread. */
export type Enricher = (sources: SourceRow[], items: PostingItem[]) => Promise<EnrichedBatch>;

export const enrichInline: Enricher = async (sources, items) => enrichBatch(sources, items);

class SourceCatalog {
  private bySlug = new Map<string, SourceRow>();
  constructor(rows: SourceRow[]) {
    for (const r of rows) {
      this.bySlug.set(r.slug, r);
      if (r.legacy_slug) this.bySlug.set(r.legacy_slug, r);
    }
  }
  get(slug: string): SourceRow | undefined {
    return this.bySlug.get(slug.toLowerCase());
  }
}

function prepare(
  items: PostingItem[],
  catalog: SourceCatalog,
  report: IngestReport,
): { rec: PostingRecord; line?: number; source: SourceRow }[] {
  const out: { rec: PostingRecord; line?: number; source: SourceRow }[] = [];
  const seen = new Set<string>();
  for (const it of items) {
    const source = catalog.get(it.rec.source);
    if (!source) {
      report.rejected.push({
        line: it.line,
        id: it.rec.id,
        reason: `unknown source ${JSON.stringify(it.rec.source)}`,
      });
      continue;
    }
    const prefix = it.rec.id.slice(0, it.rec.id.indexOf(':'));
    if (catalog.get(prefix)?.slug !== source.slug) {
      report.rejected.push({
        line: it.line,
        id: it.rec.id,
        reason: `id must start with its source "${source.slug}:"`,
      });
      continue;
    }
    // Ids are stored with the public slug even when the source gave its legacy form.
    const rec = { ...it.rec, id: `${source.slug}:${it.rec.id.slice(prefix.length + 1)}` };
    if (seen.has(rec.id)) {
      // A later line for the same id replaces the earlier one within a batch.
      const at = out.findIndex((o) => o.rec.id === rec.id);
      out.splice(at, 1);
    }
    seen.add(rec.id);
    out.push({ rec, line: it.line, source });
  }
  return out;
}

/** Source checks and enrichment of one batch; a record that cannot be enriched is rejected with the reason. */
export function enrichBatch(sources: SourceRow[], items: PostingItem[]): EnrichedBatch {
  const report = emptyReport();
  const ready = prepare(items, new SourceCatalog(sources), report);
  const enriched: EnrichedItem[] = [];
  for (const r of ready) {
    try {
      const e = enrichPosting(r.rec);
      enriched.push({ ...r, e, sig: simhash(e.description_text) });
    } catch (err) {
      report.rejected.push({
        line: r.line,
        id: r.rec.id,
        reason: `could not be enriched: ${(err as Error).message}`,
      });
    }
  }
  return { report, enriched };
}
