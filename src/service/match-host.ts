// The process that holds the match index (search/match.ts): it checks the data version every second and
// builds the index again when it moved on, and answers the workers' questions (search/match-client.ts).
import cluster, { type Worker } from 'node:cluster';
import type { Db } from '../db/pool.ts';
import path from 'node:path';
import type { Config } from '../config.ts';
import { startModuleThread } from '../ingest/threads.ts';
import { type Built, type IndexBuilder, type MatchQuery, MatchService } from '../search/match.ts';
import { readIndex } from '../search/match-index.ts';

export type { MatchSource } from '../search/match.ts';

const CHECK_MS = 1000;

/**
 * Builds the index on a worker thread: a build reads a million rows, and the memory of reading them would
 * stay with this process's heap; the thread's goes with it.
 */
export function buildOnThread(config: Config): IndexBuilder {
  return () =>
    new Promise<Built>((resolve, reject) => {
      const worker = startModuleThread(import.meta.url, './match-build-thread', { config });
      worker.once('message', (m: { bytes?: Uint8Array; error?: string }) => {
        if (!m.bytes) return reject(new Error(m.error));
        try {
          const bytes = Buffer.from(m.bytes.buffer, m.bytes.byteOffset, m.bytes.byteLength);
          resolve({ index: readIndex(bytes), bytes });
        } catch (err) {
          reject(err);
        }
      });
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the build thread exited with code ${code}`)));
    });
}

/**
 * Holds the index for the workers. `config.DATABASE_URL` must be set (the primary's resolved URL, which
 * the build thread connects to); the index is saved in DATA_DIR and read back at start, before the
 * workers start.
 */
export async function hostMatchIndex(db: Db, config: Config, log: (msg: string, err?: unknown) => void) {
  const file = path.join(config.DATA_DIR, 'match-index.bin');
  const service = new MatchService(db.read, log, file, buildOnThread(config));
  // Each worker knows the version the index is at, and asks only for requests of that version: while
  // the index is built again, nothing waits on this process.
  const tell = (w: Worker | undefined) => {
    if (w?.isConnected())
      w.send({ type: 'match-version', version: service.status.version }, undefined, () => {});
  };
  service.onVersion = () => {
    for (const w of Object.values(cluster.workers ?? {})) tell(w);
  };
  if (await service.load().catch(() => false))
    log(`match index read from ${file} (version ${service.status.version})`);
  const check = () => void service.refresh().catch((err) => log('match index: version check failed', err));
  const timer = setInterval(check, CHECK_MS);
  timer.unref();
  check();
  const onMessage = (worker: Worker, m: { type?: string; seq?: number; query?: MatchQuery }) => {
    if (m?.type !== 'match' || !m.query) return;
    const reply = (answer: unknown) => {
      if (worker.isConnected())
        worker.send({ type: 'match-answer', seq: m.seq, answer }, undefined, () => {});
    };
    service.ask(m.query).then(reply, () => reply(undefined));
  };
  if (cluster.isPrimary) {
    cluster.on('message', onMessage);
    // Once listening, a worker has its app, and so its listener for the version.
    cluster.on('listening', tell);
  }
  return {
    service,
    stop: async () => {
      clearInterval(timer);
      cluster.off('message', onMessage);
      cluster.off('listening', tell);
    },
  };
}
