// The genuine payloads beside the repository (`../shared/real-payloads/`, never copied into it): tests over
// them skip, saying why, where the folder is absent.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type ConvertContext, convertPayloadFiles } from '../../src/ingest/adapters/index.ts';
import type { PostingRecord } from '../../src/model/record.ts';

export const REAL_PAYLOADS = path.resolve(import.meta.dirname, '../../../shared/real-payloads');

/** Why the corpus tests skip, or undefined when the folder is there. */
export const REAL_PAYLOADS_ABSENT = existsSync(REAL_PAYLOADS)
  ? undefined
  : `skipped: the genuine payloads are not beside this repository (${REAL_PAYLOADS} is absent)`;

/** The postings one payload file converts to, by id (`<source>:<native id>`), with the file's report. */
export async function loadReal(format: string, file: string, ctx: ConvertContext = {}) {
  const res = await convertPayloadFiles(format, [path.join(REAL_PAYLOADS, format, file)], {
    now: new Date('2026-11-27T00:00:00Z'),
    ...ctx,
  });
  const byId = new Map<string, PostingRecord>();
  for (const r of res.records) if (r.kind === 'posting') byId.set(r.id, r);
  return { postings: byId, records: res.records, file: res.files[0] };
}
