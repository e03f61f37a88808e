// The one write path of postings: validate → enrich → resolve employer → change tracking →
// duplicate folding → upsert → expiry, in transactional batches. Every loader, adapter and the
// crawler goes through here.
import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { toCountryCode } from '../geo/countries.ts';
import {
  type CompanyRow,
  findCompanies,
  loadSources,
  type SourceRow,
  upsertCompanies,
  upsertSources,
} from '../db/companies-write.ts';
import { bumpDataVersion, nextFeedTimestamp } from '../db/feed-clock.ts';
import {
  type Candidate,
  type ExistingJob,
  expireRows,
  findCandidates,
  foldPairs,
  liveIds,
  loadExisting,
  promote,
  recordCopyReasons,
  recordExpiry,
  recordSeen,
  recordVersions,
  type StoredRow,
  stageVectors,
  unstageVectors,
  upsertRows,
} from '../db/jobs-write.ts';
import { type Db, withTransaction } from '../db/pool.ts';
import type { CanonicalLine, CompanyRecord, PostingRecord } from '../model/record.ts';
import { unfold } from './expiry.ts';
import { addReports, emptyReport, type IngestReport } from './report.ts';
import { type EnrichedBatch, type Enricher, enrichInline, type PostingItem } from './stages/enrich-batch.ts';
import type { JobContent } from '../model/job-row.ts';
import { nameKey } from './stages/name-key.ts';
import { buildContent, changedFields, hammingHex, renderDoc } from './stages/row.ts';
import { JobState } from '../model/job-state.ts';

const TYPE_RANK: Record<string, number> = { ats: 0, jobboard: 1, aggregator: 2 };
/** Near-identical descriptions: SimHash distance at most this many bits of 64. */
export const NEAR_IDENTICAL_BITS = 6;
/**
 * A board's copy of an ATS posting may frame the text with its own (an agency's introduction and
 * reference): up to this many bits. Two postings of the same kind keep the stricter bound, since an
 * employer's separate openings share much of their text.
 */
export const REPOST_BITS = 12;

function domainKey(d: string | undefined | null): string | null {
  if (!d) return null;
  let s = d.trim().toLowerCase();
  try {
    if (s.includes('/')) s = new URL(s.includes('://') ? s : `https://${s}`).hostname;
  } catch {
    return null;
  }
  return s.replace(/^www\./, '') || null;
}

function companyRow(c: CompanyRecord): CompanyRow {
  const profile = {
    slug: c.slug,
    name: c.name,
    domain: c.domain ?? null,
    website: c.website ?? null,
    logo: c.logo ?? null,
    industry: c.industry ?? null,
    type: c.type ?? null,
    description: c.description ?? null,
    slogan: c.slogan ?? null,
    specialties: c.specialties ?? [],
    employee_count: c.employee_count ?? null,
    size_range: c.size_range ?? null,
    followers: c.followers ?? 0,
    founded_year: c.founded_year ?? null,
    hq: c.hq
      ? { ...c.hq, country: c.hq.country ? (toCountryCode(c.hq.country) ?? c.hq.country) : null }
      : null,
    funding: c.funding ?? null,
    stock: c.stock ?? null,
    affiliated_companies: c.affiliated_companies ?? [],
    data_tier: c.data_tier ?? null,
  };
  return {
    slug: c.slug,
    name: c.name,
    name_key: nameKey(c.name),
    domain: domainKey(c.domain ?? c.website),
    industry_key: c.industry ? c.industry.toLowerCase() : null,
    size_range: c.size_range ?? null,
    employee_count: c.employee_count ?? null,
    followers: c.followers ?? 0,
    remco: c.data_tier === 'remco',
    hq_country: profile.hq?.country ?? null,
    total_funding: c.funding?.total_investment_usd ?? null,
    profile,
  };
}

const POSTING_BATCH = 500;

/** Cumulative milliseconds per write stage in this process (read by bench/load.ts). */
export const stageMs: Record<string, number> = {};
let stageMark = 0;
/** Charges the time since the previous mark to `stage`. */
function lap(stage: string): void {
  const now = performance.now();
  if (stage) stageMs[stage] = (stageMs[stage] ?? 0) + now - stageMark;
  stageMark = now;
}

/** Lines of a load as they are read: a chunk, with the line number of each. */
export interface LineChunk {
  lines: CanonicalLine[];
  lineNumbers?: number[];
  /** Called once the chunk's postings are written (its batches committed). */
  done?: () => void;
}

/**
 * Loads canonical lines. Sources and companies first, then postings in batches of one transaction
 * each, so a crash mid-load leaves every committed batch whole and the rest untouched.
 */
export async function ingestRecords(
  db: Db,
  lines: CanonicalLine[],
  lineNumbers?: number[],
  enrich: Enricher = enrichInline,
  onProgress?: (postingsDone: number, postingsTotal: number) => void,
): Promise<IngestReport> {
  async function* one() {
    yield { lines, lineNumbers };
  }
  const total = lines.filter(isPosting).length;
  let done = 0;
  return ingestChunks(db, one(), enrich, (n) => {
    done += n;
    onProgress?.(Math.min(done, total), total);
  });
}

function isPosting(l: CanonicalLine): boolean {
  return l.kind === 'posting' || (l as { kind?: string }).kind === undefined;
}

interface Ahead {
  report: IngestReport;
  prepared: Prepared[];
  token: number;
}

/**
 * Loads chunks of canonical lines as `ingestRecords` does, one after the other, in the order read.
 * Each chunk's sources and companies are written before its postings; the batches' writes stay strictly
 * in order, one transaction each. What a batch needs before its transaction (its enrichment, its
 * employers, its search vectors) is done while the batch before it is written, across chunks too: only a
 * chunk with sources or companies waits for the writes before it, so its postings resolve against them.
 */
export async function ingestChunks(
  db: Db,
  chunks: AsyncIterable<LineChunk>,
  enrich: Enricher = enrichInline,
  onBatch?: (postings: number) => void,
): Promise<IngestReport> {
  const report = emptyReport();
  const input = chunks[Symbol.asyncIterator]();
  let sourceRows = await loadSources(db.write);
  // Batches read but not yet started, each with the chunk it ends (to report it done).
  const queue: { items: PostingItem[]; ends?: LineChunk }[] = [];
  let held: LineChunk | undefined; // read, but its sources and companies are not written yet
  let ended = false;

  const read = async (): Promise<void> => {
    const r = await input.next();
    if (r.done) ended = true;
    else if (r.value.lines.some((l) => !isPosting(l))) held = r.value;
    else queue.push(...batchesOf(r.value));
  };
  // The next batch, if it can be prepared now: not past a chunk whose sources or companies must be
  // written first, unless nothing is in flight (`drained`), when they are written here.
  const nextBatch = async (drained: boolean) => {
    while (!queue.length && !ended) {
      if (held) {
        if (!drained) return undefined;
        sourceRows = await writeCatalog(db, held.lines, sourceRows);
        queue.push(...batchesOf(held));
        held = undefined;
      } else await read();
    }
    return queue.shift();
  };
  const ahead = async (items: PostingItem[]): Promise<Ahead> => {
    const batch = await enrich(sourceRows, items);
    const token = nextToken++;
    const [prepared] = await Promise.all([
      resolveEmployers(db.write, batch.enriched),
      stageVectors(
        db.write,
        token,
        batch.enriched.map((x) => ({
          id: x.rec.id,
          title: x.rec.title,
          descText: JSON.stringify(x.e.description_text),
        })),
      ),
    ]);
    return { report: batch.report, prepared, token };
  };

  await unstageVectors(db.write);
  type Pending = { batch: { items: PostingItem[]; ends?: LineChunk }; work: Promise<Ahead> };
  const start = (batch: { items: PostingItem[]; ends?: LineChunk }): Pending => {
    const work = ahead(batch.items);
    // Settle a failed look-ahead if the write fails first, so it is not reported as unhandled.
    work.catch(() => {});
    return { batch, work };
  };
  let pending: Pending | undefined;
  try {
    for (;;) {
      if (!pending) {
        const b = await nextBatch(true);
        if (!b) break;
        pending = start(b);
      }
      lap('');
      const current = pending;
      const prepared = await current.work;
      lap('wait_ahead');
      // The write starts first; the next batch is read (if it must be) and prepared while it runs.
      const writing = writeBatch(db, prepared);
      let next: Awaited<ReturnType<typeof nextBatch>>;
      try {
        next = await nextBatch(false);
      } catch (err) {
        await writing.catch(() => {});
        throw err;
      }
      pending = next ? start(next) : undefined;
      Object.assign(report, addReports(addReports(report, prepared.report), await writing));
      onBatch?.(current.batch.items.length);
      current.batch.ends?.done?.();
    }
  } finally {
    await input.return?.();
  }
  return report;
}

/** A chunk's postings in batches; the last one (or an empty one, for a chunk of none) ends the chunk. */
function batchesOf(chunk: LineChunk): { items: PostingItem[]; ends?: LineChunk }[] {
  const postings: PostingItem[] = [];
  chunk.lines.forEach((l, i) => {
    if (isPosting(l)) postings.push({ rec: l as PostingRecord, line: chunk.lineNumbers?.[i] });
  });
  const out: { items: PostingItem[]; ends?: LineChunk }[] = [];
  for (let i = 0; i < postings.length; i += POSTING_BATCH)
    out.push({ items: postings.slice(i, i + POSTING_BATCH) });
  if (!out.length) out.push({ items: [] });
  out[out.length - 1].ends = chunk;
  return out;
}

/** Writes a chunk's sources and companies; returns the sources as they now stand. */
async function writeCatalog(db: Db, lines: CanonicalLine[], sourceRows: SourceRow[]): Promise<SourceRow[]> {
  const sources = lines.filter((l) => l.kind === 'source');
  const companies = lines.filter((l) => l.kind === 'company') as (CompanyRecord & { kind: 'company' })[];
  if (sources.length) {
    await upsertSources(
      db.write,
      sources.map((s) => ({
        slug: s.slug,
        legacy_slug: s.legacy_slug ?? null,
        type: s.type,
        domain: s.domain,
        name: s.name,
      })),
    );
  }
  for (let i = 0; i < companies.length; i += 1000) {
    await withTransaction(db.write, async (c) => {
      // Company filters and the company inside every job read these rows: what is cached per data
      // version must not outlive a changed profile.
      if ((await upsertCompanies(c, companies.slice(i, i + 1000).map(companyRow))).length)
        await bumpDataVersion(c, undefined, false);
    });
  }
  return sources.length ? loadSources(db.write) : sourceRows;
}

interface Prepared {
  content: JobContent;
  line?: number;
}

/** Tokens of staged batches: random per process, so concurrent loaders never share one. */
let nextToken = randomInt(2 ** 40) * 1024;

async function writeBatch(db: Db, { prepared, token }: Ahead): Promise<IngestReport> {
  const report = emptyReport();
  if (!prepared.length) return report;

  await withTransaction(db.write, async (client) => {
    lap('begin');
    const ts = await nextFeedTimestamp(client);
    lap('feed_clock');
    const existing = await loadExisting(
      client,
      prepared.map((p) => p.content.id),
    );
    lap('load_existing');
    const { rows, toExpire, expiredNow } = trackChanges(prepared, existing, ts, report);
    lap('change_tracking');
    await recordHistory(client, ts, prepared, existing, rows);
    lap('history');
    // Folding: rows that will be live are matched against the other copies of the same posting.
    const published = new Set(
      [...existing.values()].filter((e) => e.state === JobState.Live).map((e) => e.id),
    );
    const plan = await planFolds(client, rows, new Set(existing.keys()), ts, published);
    report.folded += plan.folded;
    for (const r of rows) {
      const survivor = plan.arriving.get(r.id);
      if (survivor !== undefined) {
        r.state = JobState.Folded;
        r.duplicate_of = survivor;
      }
    }
    await upsertRows(client, rows, token);
    await unstageVectors(client, token);
    lap('upsert');
    await applyFolds(client, plan, ts);
    await recordCopyReasons(client, [...plan.arriving.keys()]);
    lap('fold_write');

    const expired = toExpire.length
      ? [...expiredNow, ...(await expireRows(client, ts, toExpire))]
      : expiredNow;
    await recordExpiryReasons(client, ts, prepared, rows, expired);
    if (expired.length) {
      report.expired += expired.length;
      await unfold(client, expired, ts);
    }
    // An unchanged re-load (a re-crawl of a quiet board) keeps the cached totals and stats valid.
    lap('expire');
    if (rows.length || toExpire.length) await bumpDataVersion(client);
    lap('data_version');
  });
  lap('commit');
  return report;
}

/**
 * The history of a batch, written before its rows: a version for each row whose modified_at moves to
 * `ts`, and the postings and sources this load listed (a posting sent as gone is not listed).
 */
async function recordHistory(
  client: pg.PoolClient,
  ts: string,
  prepared: Prepared[],
  existing: Map<string, ExistingJob>,
  rows: StoredRow[],
): Promise<void> {
  const changed = rows.filter((r) => r.modified_at === ts && existing.has(r.id));
  await recordVersions(
    client,
    ts,
    changed.map((after) => ({ before: existing.get(after.id)!, after })),
  );
  await recordSeen(
    client,
    ts,
    prepared.filter((p) => !p.content.gone).map((p) => p.content.id),
    prepared.map((p) => p.content.source),
  );
}

/** Why the rows of a batch that left at `ts` left: sent as gone (closed), else their expires_at passed. */
async function recordExpiryReasons(
  client: pg.PoolClient,
  ts: string,
  prepared: Prepared[],
  rows: StoredRow[],
  expired: string[],
): Promise<void> {
  // Rows written expired by this batch (new ones too) and live rows expired by it.
  const ids = new Set([...expired, ...rows.filter((r) => r.expired_at === ts).map((r) => r.id)]);
  if (!ids.size) return;
  const gone = new Set(prepared.filter((p) => p.content.gone).map((p) => p.content.id));
  await recordExpiry(
    client,
    [...ids],
    [...ids].map((id) => (gone.has(id) ? 'source_marked_closed' : 'valid_through_passed')),
  );
}

/** Employer resolution (given slug, then domain, then normalised name), then each posting's stored content. */
async function resolveEmployers(
  client: pg.Pool | pg.PoolClient,
  enriched: EnrichedBatch['enriched'],
): Promise<Prepared[]> {
  const matches = await findCompanies(
    client,
    enriched.map((x) => x.rec.company.slug).filter((s): s is string => !!s),
    enriched
      .map((x) => domainKey(x.rec.company.domain ?? x.rec.company.website))
      .filter((s): s is string => !!s),
    enriched.map((x) => nameKey(x.rec.company.name)),
  );
  const bySlug = new Map(matches.map((m) => [m.slug, m.slug]));
  const byDomain = new Map<string, string>();
  const byName = new Map<string, string>();
  for (const m of matches) {
    if (m.domain && !byDomain.has(m.domain)) byDomain.set(m.domain, m.slug);
    if (!byName.has(m.name_key)) byName.set(m.name_key, m.slug);
  }
  const resolve = (rec: PostingRecord): string | null => {
    const c = rec.company;
    if (c.slug && bySlug.has(c.slug)) return c.slug;
    const d = domainKey(c.domain ?? c.website);
    if (d && byDomain.has(d)) return byDomain.get(d)!;
    return byName.get(nameKey(c.name)) ?? null;
  };
  return enriched.map((x) => ({
    content: buildContent(x.rec, x.e, x.source, resolve(x.rec), x.sig),
    line: x.line,
  }));
}

/**
 * Change tracking: each posting against its stored row. An identical record changes nothing; a tracked
 * change bumps modified_at; an expired job that comes back is revived; a changed posting past its end
 * is written expired (`expiredNow` when it was live), an unchanged one is collected for expiry
 * (`toExpire`). Counts go into `report`.
 */
function trackChanges(
  prepared: Prepared[],
  existing: Awaited<ReturnType<typeof loadExisting>>,
  ts: string,
  report: IngestReport,
): { rows: StoredRow[]; toExpire: string[]; expiredNow: string[] } {
  const now = Date.parse(ts);
  const rows: StoredRow[] = [];
  const toExpire: string[] = [];
  const expiredNow: string[] = [];
  for (const { content } of prepared) {
    const ex = existing.get(content.id);
    const ending = content.gone || (content.expires_at !== null && Date.parse(content.expires_at) <= now);
    if (ex && ex.content_hash === content.content_hash) {
      // Same record again: nothing changes. A live row whose expires_at passed meanwhile expires here.
      report.unchanged++;
      if (ending && ex.state === JobState.Live) toExpire.push(content.id);
      continue;
    }
    const changed = ex ? changedFields(ex.tracked, content.tracked) : [];
    const reviving = ex !== undefined && ex.state === JobState.Expired && !ending;
    const bump = ex !== undefined && (changed.length > 0 || reviving);
    const created_at = ex?.created_at ?? ts;
    const modified_at = bump ? ts : (ex?.modified_at ?? null);
    const modified_fields = bump ? changed : (ex?.modified_fields ?? []);
    const posted_at = content.posted_at ?? created_at;
    let state: JobState = ex ? ex.state : JobState.Live;
    let expired_at = ex?.expired_at ?? null;
    if (reviving) {
      state = JobState.Live;
      expired_at = null;
    }
    // A changed row that ends is written expired: as a live version it would enter every search index
    // only to leave it in the same transaction. A new one is never published; a live one was and
    // leaves through the expired feed (unfold promotes a copy of it).
    if (ending && state === JobState.Live) {
      if (ex) expiredNow.push(content.id);
      else report.expired++;
      state = JobState.Expired;
      expired_at = ts;
    }
    const { pub: _pub, ...columns } = content;
    rows.push({
      ...columns,
      state,
      duplicate_of: state === JobState.Folded ? (ex?.duplicate_of ?? null) : null,
      posted_at,
      created_at,
      modified_at,
      modified_fields,
      updated_at: ts,
      expired_at,
      doc: renderDoc(content, { created_at, modified_at, modified_fields, updated_at: ts, posted_at }),
    });
    if (ex) report.updated++;
    else report.inserted++;
  }
  return { rows, toExpire, expiredNow };
}

/** How close two descriptions must be: a folded copy stands for its survivor only when near-identical. */
function nearBits(c: Candidate, me: Candidate): number {
  const boardCopyOfAts = (c.source_type === 'ats') !== (me.source_type === 'ats');
  return boardCopyOfAts && c.state !== JobState.Folded ? REPOST_BITS : NEAR_IDENTICAL_BITS;
}

/** One write of a fold plan, in the order the plan decided it. */
type FoldOp = { ids: string[]; survivor: string } | { revive: string; doc: string; fields: string[] };

interface FoldPlan {
  ops: FoldOp[];
  /** New rows that arrive folded (id → survivor): written folded by the batch's upsert itself. */
  arriving: Map<string, string>;
  /** Rows published before this batch (a fold of one leaves through the expired feed). */
  published: Set<string>;
  folded: number;
}

/**
 * Decides the folds of a batch before it is written: within each group of copies the best row (ats,
 * then jobboard, then aggregator; then the oldest) survives. The stored candidates are read with the
 * batch's rows as they will be written, so the decisions are those that reading after the upsert would
 * make. A new row that only ever folds into another is then written folded: as a live version it would
 * enter every live-only search index and leave them again in the same transaction.
 */
async function planFolds(
  client: pg.PoolClient,
  rows: StoredRow[],
  /** Ids of the batch's rows that were stored before it. */
  existing: ReadonlySet<string>,
  ts: string,
  publishedInBatch: ReadonlySet<string>,
): Promise<FoldPlan> {
  const plan: FoldPlan = { ops: [], arriving: new Map(), published: new Set(publishedInBatch), folded: 0 };
  const live = rows.filter((r) => r.state !== JobState.Expired);
  if (!live.length) return plan;
  const stored = await findCandidates(
    client,
    live.map((r) => r.canonical_url),
    live.flatMap((r) => (r.alt_dedupe_key ? [r.dedupe_key, r.alt_dedupe_key] : [r.dedupe_key])),
  );
  lap('fold_find');
  const now = Date.parse(ts);
  const written = new Set(rows.map((r) => r.id));
  const cands: Candidate[] = [
    ...stored.filter((c) => !written.has(c.id)),
    // As the upsert stores them: an absent value is NULL.
    ...live.map((r) => ({
      id: r.id,
      state: r.state,
      duplicate_of: r.duplicate_of ?? null,
      source_type: r.source_type,
      created_at: r.created_at,
      canonical_url: r.canonical_url ?? null,
      dedupe_key: r.dedupe_key,
      desc_sig: r.desc_sig ?? null,
      eligible: !r.gone && (r.expires_at == null || Date.parse(r.expires_at) > now),
    })),
  ];
  const byId = new Map<string, Candidate>(cands.map((c) => [c.id, c]));
  const byUrl = new Map<string, Candidate[]>();
  const byKey = new Map<string, Candidate[]>();
  const add = (m: Map<string, Candidate[]>, k: string, c: Candidate) => {
    const list = m.get(k);
    if (list) list.push(c);
    else m.set(k, [c]);
  };
  for (const c of cands) {
    if (c.canonical_url !== null) add(byUrl, c.canonical_url, c);
    add(byKey, c.dedupe_key, c);
  }
  // Live rows not written by this batch were committed live before: they have been published.
  const batchIds = new Set(live.map((r) => r.id));
  for (const c of stored) if (c.state === JobState.Live && !written.has(c.id)) plan.published.add(c.id);
  const rank = (c: Candidate) => [TYPE_RANK[c.source_type] ?? 3, c.created_at, c.id] as const;
  const better = (a: Candidate, b: Candidate) => {
    const ra = rank(a);
    const rb = rank(b);
    return ra[0] !== rb[0] ? ra[0] < rb[0] : ra[1] !== rb[1] ? ra[1] < rb[1] : ra[2] < rb[2];
  };
  const survivorOf = (c: Candidate): Candidate | undefined => {
    let cur: Candidate | undefined = c;
    for (let hops = 0; cur && cur.state === JobState.Folded && hops < 5; hops++)
      cur = cur.duplicate_of ? byId.get(cur.duplicate_of) : undefined;
    return cur && cur.state === JobState.Live ? cur : undefined;
  };
  // A folded row of this batch becomes live again (announced through the modified feed): its
  // original is no longer live, or it now beats every live copy.
  const revive = (r: StoredRow, me: Candidate) => {
    const fields = r.modified_at === ts ? r.modified_fields : [];
    const doc = JSON.parse(r.doc) as Record<string, unknown>;
    doc.modified_at = ts;
    doc.modified_fields = fields;
    plan.ops.push({ revive: r.id, doc: JSON.stringify(doc), fields });
    me.state = JobState.Live;
    me.duplicate_of = null;
  };
  const originals = await liveIds(
    client,
    cands
      .filter((c) => c.state === JobState.Folded && batchIds.has(c.id) && c.duplicate_of)
      .map((c) => c.duplicate_of!),
  );
  for (const r of live) {
    const me = byId.get(r.id)!;
    if (!me.eligible) continue;
    if (me.state === JobState.Folded && me.duplicate_of) {
      const hasLiveOriginal = byId.has(me.duplicate_of)
        ? survivorOf(me) !== undefined
        : originals.has(me.duplicate_of);
      if (!hasLiveOriginal) revive(r, me);
    }
    // Only candidates with the same canonical URL or dedupe key can match: looked up, not scanned.
    const alt = r.alt_dedupe_key;
    const near = new Set([
      ...(me.canonical_url !== null ? (byUrl.get(me.canonical_url) ?? []) : []),
      ...(byKey.get(me.dedupe_key) ?? []),
      ...(alt ? (byKey.get(alt) ?? []) : []),
    ]);
    const close = (c: Candidate, bits: number) =>
      c.desc_sig !== null && me.desc_sig !== null && hammingHex(c.desc_sig, me.desc_sig) <= bits;
    const matches = [...near].filter(
      (c) =>
        c.id !== me.id &&
        ((c.canonical_url !== null && c.canonical_url === me.canonical_url) ||
          (c.dedupe_key === me.dedupe_key && close(c, nearBits(c, me))) ||
          // One source says remote, the other names the office: the same place only with the same text.
          (alt !== null && c.dedupe_key === alt && close(c, NEAR_IDENTICAL_BITS))),
    );
    const others = [...new Set(matches.map(survivorOf).filter((s): s is Candidate => !!s && s.id !== me.id))];
    if (!others.length) continue;
    const best = others.reduce((a, b) => (better(a, b) ? a : b));
    if (better(me, best)) {
      // This row takes over: every other live copy folds into it.
      if (me.state === JobState.Folded) revive(r, me);
      plan.ops.push({ ids: others.map((o) => o.id), survivor: me.id });
      for (const o of others) {
        o.state = JobState.Folded;
        o.duplicate_of = me.id;
      }
      plan.folded += others.length;
    } else if (me.state !== JobState.Folded || me.duplicate_of !== best.id) {
      plan.ops.push({ ids: [me.id], survivor: best.id });
      me.state = JobState.Folded;
      me.duplicate_of = best.id;
      plan.folded++;
    }
  }
  // New rows folded once and never a survivor nor revived arrive folded. A survivor folded later in
  // the plan takes them along (foldPairs repoints the copies of a folded row).
  const touched = new Map<string, number>();
  const bump = (id: string) => touched.set(id, (touched.get(id) ?? 0) + 1);
  for (const op of plan.ops) {
    if ('revive' in op) bump(op.revive);
    else {
      bump(op.survivor);
      op.ids.forEach(bump);
    }
  }
  for (const op of plan.ops)
    if (!('revive' in op))
      for (const id of op.ids)
        if (batchIds.has(id) && !existing.has(id) && touched.get(id) === 1)
          plan.arriving.set(id, op.survivor);
  lap('fold_match');
  return plan;
}

/**
 * Writes a fold plan after the batch's upsert, in the plan's order. Independent folds go in one
 * statement; a fold that depends on one gathered earlier (same row, or a survivor being folded) writes
 * what is gathered first, and so does a revival.
 */
async function applyFolds(client: pg.PoolClient, plan: FoldPlan, ts: string): Promise<void> {
  const pending = {
    pairs: [] as [string, string][],
    folded: new Set<string>(),
    survivors: new Set<string>(),
  };
  const flush = async () => {
    await foldPairs(client, pending.pairs, ts, plan.published);
    pending.pairs = [];
    pending.folded.clear();
    pending.survivors.clear();
  };
  for (const op of plan.ops) {
    if ('revive' in op) {
      await flush();
      await promote(client, op.revive, ts, op.doc, op.fields);
      continue;
    }
    const ids = op.ids.filter((id) => !plan.arriving.has(id));
    if (!ids.length) continue;
    if (
      pending.folded.has(op.survivor) ||
      ids.some((id) => pending.folded.has(id) || pending.survivors.has(id))
    )
      await flush();
    for (const id of ids) {
      pending.pairs.push([id, op.survivor]);
      pending.folded.add(id);
    }
    pending.survivors.add(op.survivor);
  }
  await flush();
}
