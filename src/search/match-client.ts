// A worker's way to the match index, which one process holds (the primary, service/match-host.ts): a
// question over the cluster's IPC channel, answered or given up after a while (then PostgreSQL answers).
import { CATCH_UP_MS, type MatchAnswer, type MatchQuery, type MatchSource } from './match.ts';

const GIVE_UP_MS = 2000;

export function ipcMatchSource(): MatchSource | undefined {
  if (!process.send) return undefined;
  let seq = 0;
  const waiting = new Map<number, (a: MatchAnswer | undefined) => void>();
  // The version the index is at, as the primary last told: other versions are not asked about.
  let at: number | undefined;
  process.on('message', (m: { type?: string; seq?: number; answer?: MatchAnswer; version?: number }) => {
    if (m?.type === 'match-version') {
      at = m.version;
      for (const [v, c] of catching) if (at !== undefined && v <= at) c.reached();
    }
    if (m?.type !== 'match-answer' || m.seq === undefined) return;
    waiting.get(m.seq)?.(m.answer);
  });
  /** Sends `message` with a sequence number and resolves with its answer, undefined after `ms`. */
  const request = (message: Record<string, unknown>, ms: number) =>
    new Promise<MatchAnswer | undefined>((resolve) => {
      const id = ++seq;
      const done = (a: MatchAnswer | undefined) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(a);
      };
      const timer = setTimeout(() => done(undefined), ms);
      waiting.set(id, done);
      process.send!({ ...message, seq: id }, undefined, undefined, (err) => {
        if (err) done(undefined);
      });
    });
  // One catch-up asked for every request of the same version: done when answered or when the version is told.
  const catching = new Map<number, { done: Promise<void>; reached: () => void }>();
  return {
    ask(query: MatchQuery) {
      if (query.version !== at) return Promise.resolve(undefined);
      return request({ type: 'match', query }, GIVE_UP_MS);
    },
    catchUp(version: number) {
      if (at === undefined || version <= at) return Promise.resolve();
      let c = catching.get(version);
      if (!c) {
        let reached = () => {};
        const told = new Promise<void>((resolve) => {
          reached = resolve;
        });
        const answered = request({ type: 'match-catch-up', version }, CATCH_UP_MS + GIVE_UP_MS);
        const done = Promise.race([told, answered]).then(() => {
          catching.delete(version);
        });
        c = { done, reached };
        catching.set(version, c);
      }
      return c.done;
    },
  };
}
