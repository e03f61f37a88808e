// The process that holds the match index (search/match.ts): it checks the data version every second and
// builds the index again when it moved on, and answers the workers' questions (search/match-client.ts).
import cluster, { type Worker } from 'node:cluster';
import type { Db } from '../db/pool.ts';
import { type MatchQuery, MatchService } from '../search/match.ts';

export type { MatchSource } from '../search/match.ts';

const CHECK_MS = 1000;

/** `file`: where the index is saved, and read back at start (before the workers start). */
export async function hostMatchIndex(db: Db, file: string, log: (msg: string, err?: unknown) => void) {
  const service = new MatchService(db.read, log, file);
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
