// Worker-thread entry of the enrichment thread (see enrich-thread.ts): one message per batch.
import { parentPort } from 'node:worker_threads';
import type { SourceRow } from '../db/companies-write.ts';
import { enrichBatch, type PostingItem } from './stages/enrich-batch.ts';

parentPort!.on('message', (m: { seq: number; sources: SourceRow[]; items: PostingItem[] }) => {
  try {
    parentPort!.postMessage({ seq: m.seq, batch: enrichBatch(m.sources, m.items) });
  } catch (err) {
    parentPort!.postMessage({ seq: m.seq, error: (err as Error).stack ?? String(err) });
  }
});
