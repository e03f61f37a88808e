// Source adapters: one per payload format. Each turns a raw body into canonical postings.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { CanonicalLine } from '../../model/record.ts';
import { ashby } from './ashby.ts';
import { greenhouse } from './greenhouse.ts';
import { jsonld } from './jsonld.ts';
import { lever } from './lever.ts';
import { personio } from './personio.ts';
import { recruitee } from './recruitee.ts';
import { smartrecruiters } from './smartrecruiters.ts';
import type { Adapter, AdapterContext, Rejection } from './types.ts';
import { workable } from './workable.ts';
import { workday, workdaySite } from './workday.ts';

export {
  type Adapter,
  type AdapterContext,
  AdapterFormatError,
  type AdapterResult,
  type Rejection,
} from './types.ts';

export const adapters: Record<string, Adapter> = {
  greenhouse,
  lever,
  ashby,
  workable,
  smartrecruiters,
  recruitee,
  personio,
  workday,
  jsonld,
};

/** The adapter format of each source slug; the JSON-LD boards share one. */
export const FORMAT_OF_SOURCE: Record<string, string> = {
  greenhouse: 'greenhouse',
  lever: 'lever',
  ashby: 'ashby',
  workable: 'workable',
  smartrecruiters: 'smartrecruiters',
  recruitee: 'recruitee',
  personio: 'personio',
  workday: 'workday',
  careerboard: 'jsonld',
  techjobs: 'jsonld',
  workhub: 'jsonld',
  jobmirror: 'jsonld',
  alljobs: 'jsonld',
};

const EXTENSIONS = new Set(['.json', '.xml', '.html', '.htm']);

export interface ConvertContext extends Partial<Omit<AdapterContext, 'board'>> {
  /** `<source>/<token>`; by default `<source>/<token>` with `token`, else `<source>/<file name without extension>`. */
  board?: string;
  /** The board token (Workday `tenant.wdN/site`, which no file name can hold). */
  token?: string;
}

export interface ConvertedFile {
  file: string;
  board: string;
  postings: number;
  rejected: Rejection[];
  dropped: number;
  /** Set when the whole file could not be read as the format (AdapterFormatError, I/O). */
  error?: string;
}

export interface ConvertResult {
  records: CanonicalLine[];
  files: ConvertedFile[];
}

async function expand(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const st = await fs.stat(p);
    if (st.isDirectory()) {
      const names = (await fs.readdir(p)).sort();
      for (const n of names) if (EXTENSIONS.has(path.extname(n).toLowerCase())) out.push(path.join(p, n));
    } else out.push(p);
  }
  return out;
}

/**
 * Saved source payloads (files, or directories of .json/.xml/.html files) to canonical posting
 * lines, for the offline `ingest --format <adapter>` command. A file that is not the format is
 * reported with `error` and contributes nothing; the other files still convert.
 */
export async function convertPayloadFiles(
  format: string,
  paths: string[],
  ctx: ConvertContext = {},
): Promise<ConvertResult> {
  const adapter = adapters[format];
  if (!adapter)
    throw new Error(`unknown format ${JSON.stringify(format)} (known: ${Object.keys(adapters).join(', ')})`);
  const source = ctx.source ?? (format === 'jsonld' ? undefined : format);
  if (!source)
    throw new Error(
      'format jsonld needs the source slug (careerboard, techjobs, workhub, jobmirror, alljobs)',
    );
  if (
    ctx.token !== undefined &&
    (!ctx.token.trim() || (format === 'workday' && !workdaySite(`workday/${ctx.token}`)))
  )
    throw new Error(
      `invalid board ${JSON.stringify(ctx.token)}${format === 'workday' ? ' (expected {tenant}.wd{N}/{site}, e.g. acme.wd5/Careers)' : ''}`,
    );
  const result: ConvertResult = { records: [], files: [] };
  for (const file of await expand(paths)) {
    const board = ctx.board ?? `${source}/${ctx.token ?? path.basename(file, path.extname(file))}`;
    const entry: ConvertedFile = { file, board, postings: 0, rejected: [], dropped: 0 };
    try {
      const payload = await fs.readFile(file, 'utf8');
      const { token: _token, ...adapterCtx } = ctx;
      const res = adapter.parse(payload, { ...adapterCtx, source, board, now: ctx.now ?? new Date() });
      for (const p of res.postings) result.records.push({ kind: 'posting', ...p });
      entry.postings = res.postings.length;
      entry.rejected = res.rejected;
      entry.dropped = res.dropped ?? 0;
    } catch (err) {
      entry.error = (err as Error).message;
    }
    result.files.push(entry);
  }
  return result;
}
