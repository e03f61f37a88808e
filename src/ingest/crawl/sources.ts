// How each source's board is fetched: the endpoints (with overridable bases), paging, and the
// detail calls some sources need. Returns the payload its adapter parses.
import { AdapterFormatError } from '../adapters/index.ts';
import { workdaySite } from '../adapters/workday.ts';
import type { Board } from './registry.ts';
import { FetchError, type HttpClient, type Validators } from './http.ts';

/** Two generations: what a round did not use is forgotten at the next rotation. */
export class DetailCache {
  private current = new Map<string, string>();
  private previous = new Map<string, string>();

  get(key: string): string | undefined {
    const v = this.current.get(key) ?? this.previous.get(key);
    if (v !== undefined) this.current.set(key, v);
    return v;
  }

  set(key: string, value: string): void {
    this.current.set(key, value);
  }

  rotate(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  get size(): number {
    return this.current.size;
  }
}

/** Base URL per source; `{token}`, `{tenant}`, `{wd}` and `{site}` are substituted. */
export const DEFAULT_BASES: Record<string, string> = {
  greenhouse: 'https://boards-api.greenhouse.io',
  lever: 'https://api.lever.co',
  ashby: 'https://api.ashbyhq.com',
  workable: 'https://apply.workable.com',
  smartrecruiters: 'https://api.smartrecruiters.com',
  recruitee: 'https://{token}.recruitee.com',
  personio: 'https://{token}.jobs.personio.de',
  workday: 'https://{tenant}.{wd}.myworkdayjobs.com',
};

export interface FetchContext {
  http: HttpClient;
  bases: Record<string, string>;
  /** Details cache shared across rounds: detail URL + list fingerprint → body. */
  details: DetailCache;
  /** Concurrent detail calls within one board. */
  detailConcurrency: number;
  maxPages: number;
}

export type BoardFetch =
  | { status: 'unchanged' }
  | {
      status: 'fetched';
      payload: string;
      /** The page address (JSON-LD boards). */
      url?: string;
      /** Validators to store once the payload is loaded. */
      validators?: Validators & { url: string };
    };

function base(ctx: FetchContext, board: Board): string {
  const tpl = ctx.bases[board.source] ?? DEFAULT_BASES[board.source];
  const wd = board.source === 'workday' ? workdaySite(board.id) : undefined;
  return tpl
    .replaceAll('{token}', encodeURIComponent(board.token))
    .replaceAll('{tenant}', wd?.tenant ?? '')
    .replaceAll('{wd}', wd?.wd ?? '')
    .replaceAll('{site}', wd?.site ?? '')
    .replace(/\/+$/, '');
}

/** URL of a board served by a single GET; conditional requests apply to these. */
function singleUrl(ctx: FetchContext, board: Board): { url: string; accept: string } | undefined {
  if (board.format === 'jsonld') return { url: board.url!, accept: 'text/html, application/xhtml+xml' };
  if (!['greenhouse', 'ashby', 'workable', 'recruitee', 'personio'].includes(board.source)) return undefined;
  const b = base(ctx, board);
  const t = encodeURIComponent(board.token);
  switch (board.source) {
    case 'greenhouse':
      return { url: `${b}/v1/boards/${t}/jobs?content=true`, accept: 'application/json' };
    case 'ashby':
      return { url: `${b}/posting-api/job-board/${t}?includeCompensation=true`, accept: 'application/json' };
    case 'workable':
      return { url: `${b}/api/v1/widget/accounts/${t}?details=true`, accept: 'application/json' };
    case 'recruitee':
      return { url: `${b}/api/offers/`, accept: 'application/json' };
    case 'personio':
      return { url: `${b}/xml?language=en`, accept: 'application/xml, text/xml' };
    default:
      return board.format === 'jsonld'
        ? { url: board.url!, accept: 'text/html, application/xhtml+xml' }
        : undefined;
  }
}

function json(format: string, body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    throw new AdapterFormatError(format, 'a page of the listing is not JSON');
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (x: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** A detail call, cached by URL and list fingerprint; undefined when the posting is gone (404/410). */
async function detail(ctx: FetchContext, url: string, fingerprint: string): Promise<string | undefined> {
  const key = `${url}\n${fingerprint}`;
  const hit = ctx.details.get(key);
  if (hit !== undefined) return hit;
  try {
    const res = await ctx.http.request({ url });
    if (res.status !== 200) throw new FetchError('unexpected 304');
    ctx.details.set(key, res.body);
    return res.body;
  } catch (err) {
    if (err instanceof FetchError && (err.status === 404 || err.status === 410)) return undefined;
    throw err;
  }
}

async function lever(ctx: FetchContext, board: Board): Promise<string> {
  const limit = 100;
  const all: unknown[] = [];
  for (let page = 0; page < ctx.maxPages; page++) {
    const url = `${base(ctx, board)}/v0/postings/${encodeURIComponent(board.token)}?mode=json&skip=${page * limit}&limit=${limit}`;
    const res = await ctx.http.request({ url });
    if (res.status !== 200) throw new FetchError('unexpected 304');
    const items = json('lever', res.body);
    if (!Array.isArray(items)) throw new AdapterFormatError('lever', 'expected an array of postings');
    all.push(...items);
    if (items.length < limit) return JSON.stringify(all);
  }
  throw new FetchError(`more than ${ctx.maxPages} pages`);
}

async function smartrecruiters(ctx: FetchContext, board: Board): Promise<string> {
  const limit = 100;
  const root = `${base(ctx, board)}/v1/companies/${encodeURIComponent(board.token)}/postings`;
  const list: Record<string, unknown>[] = [];
  let total = 0;
  for (let page = 0; ; page++) {
    if (page >= ctx.maxPages) throw new FetchError(`more than ${ctx.maxPages} pages`);
    const res = await ctx.http.request({ url: `${root}?limit=${limit}&offset=${page * limit}` });
    if (res.status !== 200) throw new FetchError('unexpected 304');
    const doc = json('smartrecruiters', res.body) as { content?: unknown; totalFound?: unknown };
    if (!doc || !Array.isArray(doc.content))
      throw new AdapterFormatError('smartrecruiters', 'expected {content:[…]}');
    list.push(...(doc.content as Record<string, unknown>[]));
    total = typeof doc.totalFound === 'number' ? doc.totalFound : list.length;
    if (doc.content.length < limit || list.length >= total) break;
  }
  // The list lacks the description and URLs: each entry is replaced by its detail (a superset).
  const content = await mapLimit(list, ctx.detailConcurrency, async (entry) => {
    const id = typeof entry?.id === 'string' || typeof entry?.id === 'number' ? String(entry.id) : undefined;
    if (!id) return entry;
    const body = await detail(ctx, `${root}/${encodeURIComponent(id)}`, String(entry.releasedDate ?? ''));
    if (body === undefined) return null;
    const d = json('smartrecruiters', body);
    return d && typeof d === 'object' && !Array.isArray(d) ? d : entry;
  });
  return JSON.stringify({
    offset: 0,
    limit: list.length,
    totalFound: total,
    content: content.filter((c) => c !== null),
  });
}

async function workday(ctx: FetchContext, board: Board): Promise<string> {
  const site = workdaySite(board.id);
  if (!site) throw new FetchError(`not a Workday board token: ${board.token}`);
  const root = `${base(ctx, board)}/wday/cxs/${site.tenant}/${site.site}`;
  const limit = 20;
  const postings: Record<string, unknown>[] = [];
  let total = 0;
  for (let page = 0; ; page++) {
    if (page >= ctx.maxPages) throw new FetchError(`more than ${ctx.maxPages} pages`);
    const res = await ctx.http.request({
      url: `${root}/jobs`,
      method: 'POST',
      json: { appliedFacets: {}, limit, offset: page * limit, searchText: '' },
    });
    if (res.status !== 200) throw new FetchError('unexpected 304');
    const doc = json('workday', res.body) as { jobPostings?: unknown; total?: unknown };
    if (!doc || !Array.isArray(doc.jobPostings))
      throw new AdapterFormatError('workday', 'expected {jobPostings:[…]}');
    // Only the first page carries the real total.
    if (page === 0) total = typeof doc.total === 'number' ? doc.total : 0;
    postings.push(...(doc.jobPostings as Record<string, unknown>[]));
    // A missing or zero total is not trusted: page on until a short page.
    if (doc.jobPostings.length < limit || (total > 0 && postings.length >= total)) break;
  }
  const details: Record<string, unknown> = {};
  const kept: Record<string, unknown>[] = [];
  await mapLimit(postings, ctx.detailConcurrency, async (p) => {
    const path = typeof p?.externalPath === 'string' ? p.externalPath : undefined;
    if (!path) return;
    const body = await detail(ctx, `${root}${path}`, String(p.title ?? ''));
    if (body === undefined) return;
    details[path] = json('workday', body);
  });
  for (const p of postings) {
    const path = typeof p?.externalPath === 'string' ? p.externalPath : undefined;
    // A posting whose detail answered 404 was removed between the two calls.
    if (path && !(path in details)) continue;
    kept.push(p);
  }
  return JSON.stringify({ total: kept.length, jobPostings: kept, details });
}

export async function fetchBoard(
  ctx: FetchContext,
  board: Board,
  validators?: Validators & { url: string },
): Promise<BoardFetch> {
  const single = singleUrl(ctx, board);
  if (single) {
    const usable = validators && validators.url === single.url ? validators : undefined;
    const res = await ctx.http.request({ url: single.url, accept: single.accept, validators: usable });
    if (res.status === 304) return { status: 'unchanged' };
    const v =
      res.validators.etag || res.validators.lastModified ? { ...res.validators, url: single.url } : undefined;
    return { status: 'fetched', payload: res.body, url: board.url, validators: v };
  }
  switch (board.source) {
    case 'lever':
      return { status: 'fetched', payload: await lever(ctx, board) };
    case 'smartrecruiters':
      return { status: 'fetched', payload: await smartrecruiters(ctx, board) };
    case 'workday':
      return { status: 'fetched', payload: await workday(ctx, board) };
    default:
      throw new FetchError(`no fetch plan for source ${board.source}`);
  }
}
