// Enrichment on a worker thread, so that a bulk load keeps both cores busy: the worker enriches the next
// batch while the main thread writes the current one. Used by the `ingest` command.
import { startModuleThread } from './threads.ts';
import type { EnrichedBatch, Enricher } from './stages/enrich-batch.ts';

export interface ThreadEnricher {
  enrich: Enricher;
  close(): Promise<void>;
}

export function startEnrichThread(): ThreadEnricher {
  const worker = startModuleThread(import.meta.url, './enrich-worker');
  const pending = new Map<number, { resolve: (b: EnrichedBatch) => void; reject: (e: Error) => void }>();
  let seq = 0;
  let failure: Error | undefined;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  worker.on('message', (m: { seq: number; batch?: EnrichedBatch; error?: string }) => {
    const p = pending.get(m.seq);
    if (!p) return;
    pending.delete(m.seq);
    if (m.batch) p.resolve(m.batch);
    else p.reject(new Error(`enrichment thread: ${m.error}`));
  });
  worker.on('error', (err) => failAll(err));
  worker.on('exit', (code) => failAll(new Error(`enrichment thread exited with code ${code}`)));
  return {
    enrich(sources, items) {
      if (failure) return Promise.reject(failure);
      return new Promise((resolve, reject) => {
        pending.set(++seq, { resolve, reject });
        worker.postMessage({ seq, sources, items });
      });
    },
    async close() {
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
