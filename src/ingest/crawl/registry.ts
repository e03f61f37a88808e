// The boards registry: a JSON file listing what to crawl,
// `[{ "source": "greenhouse", "board": "acme" | "https://boards.greenhouse.io/acme", "company": {…} }]`.
import fs from 'node:fs/promises';
import { FORMAT_OF_SOURCE } from '../adapters/index.ts';

export interface BoardEntry {
  source: string;
  /** A board token ("acme") or a board URL the token is taken from. */
  board: string;
  company?: { name?: string; slug?: string; domain?: string };
}

export interface Board {
  source: string;
  /** Adapter format. */
  format: string;
  token: string;
  /** `<source>/<token>`: the value of PostingRecord.board. */
  id: string;
  /** The page to fetch, for JSON-LD boards (always a URL). */
  url?: string;
  company?: { name?: string; slug?: string; domain?: string };
}

export class RegistryError extends Error {}

const TOKEN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const WORKDAY_TOKEN = /^[a-z0-9-]+\.wd\d+\/[A-Za-z0-9_-]+$/i;

function segments(u: URL): string[] {
  return u.pathname.split('/').filter(Boolean);
}

/** Token of a board URL, per source; undefined when the URL is not one of that source's boards. */
function tokenFromUrl(source: string, u: URL): string | undefined {
  const host = u.hostname.toLowerCase();
  const seg = segments(u);
  switch (source) {
    case 'greenhouse':
      if (host === 'boards-api.greenhouse.io')
        return seg[0] === 'v1' && seg[1] === 'boards' ? seg[2] : undefined;
      return host.endsWith('greenhouse.io') ? seg[0] : undefined;
    case 'lever':
      if (host.startsWith('api.')) return seg[0] === 'v0' && seg[1] === 'postings' ? seg[2] : undefined;
      return host.endsWith('lever.co') ? seg[0] : undefined;
    case 'ashby':
      if (host === 'api.ashbyhq.com')
        return seg[0] === 'posting-api' && seg[1] === 'job-board' ? seg[2] : undefined;
      return host.endsWith('ashbyhq.com') ? seg[0] : undefined;
    case 'workable':
      if (seg[0] === 'api') return seg[4];
      return host.endsWith('workable.com') ? seg[0] : undefined;
    case 'smartrecruiters':
      if (host.startsWith('api.')) return seg[0] === 'v1' && seg[1] === 'companies' ? seg[2] : undefined;
      return host.endsWith('smartrecruiters.com') ? seg[0] : undefined;
    case 'recruitee':
      return host.endsWith('.recruitee.com') ? host.slice(0, -'.recruitee.com'.length) : undefined;
    case 'personio': {
      const m = /^([a-z0-9-]+)\.jobs\.personio\.(de|com)$/.exec(host);
      return m ? m[1] : undefined;
    }
    case 'workday': {
      const m = /^([a-z0-9-]+)\.(wd\d+)\.myworkdayjobs\.com$/.exec(host);
      if (!m) return undefined;
      // /{site}, /{locale}/{site}, /wday/cxs/{tenant}/{site}/…
      const site = seg[0] === 'wday' ? seg[3] : /^[a-z]{2}-[A-Z]{2}$/.test(seg[0] ?? '') ? seg[1] : seg[0];
      return site ? `${m[1]}.${m[2]}/${site}` : undefined;
    }
    default:
      return undefined;
  }
}

/** One registry entry to a board; throws RegistryError with the reason. */
export function toBoard(entry: BoardEntry): Board {
  const source = entry?.source;
  const format = typeof source === 'string' ? FORMAT_OF_SOURCE[source] : undefined;
  if (!format) throw new RegistryError(`unknown source ${JSON.stringify(source)}`);
  const raw = typeof entry.board === 'string' ? entry.board.trim() : '';
  if (!raw) throw new RegistryError(`${source}: board is missing`);
  const company = entry.company && typeof entry.company === 'object' ? entry.company : undefined;
  let url: URL | undefined;
  if (/^https?:\/\//i.test(raw)) {
    try {
      url = new URL(raw);
    } catch {
      throw new RegistryError(`${source}: invalid board URL ${JSON.stringify(raw)}`);
    }
  }
  if (format === 'jsonld') {
    if (!url) throw new RegistryError(`${source}: a JSON-LD board must be a page URL`);
    const token = `${url.host}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    return { source, format, token, id: `${source}/${token}`, url: url.toString(), company };
  }
  const token = url ? tokenFromUrl(source, url) : raw;
  const valid = source === 'workday' ? WORKDAY_TOKEN : TOKEN;
  if (!token || !valid.test(token)) {
    const want =
      source === 'workday' ? '{tenant}.wd{N}/{site} or a myworkdayjobs.com URL' : 'a token or a board URL';
    throw new RegistryError(`${source}: cannot read a board from ${JSON.stringify(raw)} (expected ${want})`);
  }
  return { source, format, token, id: `${source}/${token}`, company };
}

/** Parses a registry document; every bad entry is reported, duplicates are kept once. */
export function parseRegistry(text: string): Board[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new RegistryError(`boards file is not JSON: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc))
    throw new RegistryError('boards file must be a JSON array of {source, board, company?}');
  const errors: string[] = [];
  const boards = new Map<string, Board>();
  doc.forEach((e, i) => {
    try {
      const b = toBoard(e as BoardEntry);
      if (!boards.has(b.id)) boards.set(b.id, b);
    } catch (err) {
      errors.push(`entry ${i + 1}: ${(err as Error).message}`);
    }
  });
  if (errors.length) throw new RegistryError(errors.join('\n'));
  return [...boards.values()];
}

export async function loadRegistry(file: string): Promise<Board[]> {
  return parseRegistry(await fs.readFile(file, 'utf8'));
}
