// A worker's way to the match index, which one process holds (the primary, service/match-host.ts): a
// question over the cluster's IPC channel, answered or given up after a while (then PostgreSQL answers).
import type { MatchAnswer, MatchQuery, MatchSource } from './match.ts';

const GIVE_UP_MS = 2000;

export function ipcMatchSource(): MatchSource | undefined {
  if (!process.send) return undefined;
  let seq = 0;
  const waiting = new Map<number, (a: MatchAnswer | undefined) => void>();
  // The version the index is at, as the primary last told: other versions are not asked about.
  let at: number | undefined;
  process.on('message', (m: { type?: string; seq?: number; answer?: MatchAnswer; version?: number }) => {
    if (m?.type === 'match-version') at = m.version;
    if (m?.type !== 'match-answer' || m.seq === undefined) return;
    waiting.get(m.seq)?.(m.answer);
  });
  return {
    ask(query: MatchQuery) {
      if (query.version !== at) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const id = ++seq;
        const done = (a: MatchAnswer | undefined) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(a);
        };
        const timer = setTimeout(() => done(undefined), GIVE_UP_MS);
        waiting.set(id, done);
        process.send!({ type: 'match', seq: id, query }, undefined, undefined, (err) => {
          if (err) done(undefined);
        });
      });
    },
  };
}
