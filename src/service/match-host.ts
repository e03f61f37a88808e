// The process that holds the match index (search/match.ts): it checks the data version every second and
// builds the index again when it moved on, and answers the workers' questions (search/match-client.ts).
import cluster, { type Worker } from 'node:cluster';
import { isAlive } from '../db/embedded.ts';
import type { Db } from '../db/pool.ts';
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { startModuleProcess } from '../ingest/threads.ts';
import { carriable, databaseDigest } from '../db/match-rows.ts';
import {
  type Built,
  carryLimit,
  type IndexBuilder,
  type MatchQuery,
  MatchService,
  type MatchStatus,
  readIndexParts,
  readSaved,
} from '../search/match.ts';
import { readIndex } from '../search/match-index.ts';

export type { MatchSource } from '../search/match.ts';

const CHECK_MS = 1000;

/**
 * Builds the index in a child process, which writes it next to `file`: a build reads a million rows, and
 * the memory of reading them would stay with this process (on a worker thread of it too: 130 MB of
 * native memory were still held after the thread had ended). The index is then read from the file, its
 * columns views of one buffer.
 */
export function buildInProcess(config: Config, file: string): IndexBuilder {
  return () =>
    new Promise<Built>((resolve, reject) => {
      const out = `${file}.build-${process.pid}.tmp`;
      const child = startModuleProcess(import.meta.url, './match-build', {
        JPS_MATCH_BUILD: JSON.stringify({ config, out, saved: file }),
      });
      let stderr = '';
      child.stderr?.on('data', (c) => {
        stderr = (stderr + c).slice(-2000);
      });
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        if (code !== 0) {
          void rm(out, { force: true });
          return reject(
            new Error(`the build process ended with ${signal ?? `code ${code}`}: ${stderr.trim()}`),
          );
        }
        readIndexParts(out)
          .then(({ head, columns }) => resolve({ index: readIndex(head, columns), file: out }))
          .catch(async (err) => {
            await rm(out, { force: true });
            reject(err);
          });
      });
    });
}

/**
 * Removes the temporary files of builds and saves (`match-index.bin.build-<pid>.tmp`,
 * `match-index.bin.<pid>.tmp`) whose process has gone: a build ends with its service, and a service
 * killed mid-save leaves its file behind. Returns the names removed.
 */
export async function removeLeftovers(file: string): Promise<string[]> {
  const dir = path.dirname(file);
  const base = path.basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const shape = new RegExp(`^${base}\\.(?:build-)?(\\d+)\\.tmp$`);
  const names = await readdir(dir).catch(() => [] as string[]);
  const gone = names.filter((n) => {
    const pid = Number(shape.exec(n)?.[1] ?? 0);
    return pid > 0 && pid !== process.pid && !isAlive(pid);
  });
  await Promise.all(gone.map((n) => rm(path.join(dir, n), { force: true })));
  return gone;
}

/** Where the match index of a DATA_DIR is saved, and read back at start. */
export const matchIndexFile = (config: Config): string => path.join(config.DATA_DIR, 'match-index.bin');

/**
 * How long after it was saved an index is left for the service to carry over a load: `data_changes`, which
 * a carry reads, keeps an hour (migration 26).
 */
export const CARRIED_LATER_MS = 30 * 60_000;

/**
 * Whether the index saved in DATA_DIR can be left as it is after a load, for the service to carry: of
 * this database, saved less than CARRIED_LATER_MS ago, and the loads since it logged in data_changes,
 * writing no more jobs than a carry takes on. A running service carries the load itself, in a child
 * process, whatever the `ingest` command does; one started within the half hour carries it at start.
 */
export async function carriedByTheService(db: Db, config: Config, now = Date.now()): Promise<boolean> {
  const saved = await readSaved(matchIndexFile(config));
  if (!saved || now - saved.mtimeMs > CARRIED_LATER_MS) return false;
  // The load is done whatever this finds: a query that fails means a save, as before (which fails quietly).
  try {
    return (
      (await databaseDigest(db.write)) === saved.db &&
      (await carriable(db.write, saved.version, carryLimit(saved.live)))
    );
  } catch {
    return false;
  }
}

/**
 * The match index of the data a load left, carried or built in a child process and saved where the service reads it:
 * a service started next, or running on this DATA_DIR (it looks at the file before building), reads it in
 * a second instead of answering from PostgreSQL's cold counts while it builds one (15–60 s at a million
 * jobs). From the primary database: a replica may not have the load yet. Says whether it was built or
 * carried (the saved index carried over a load that wrote at most a quarter of its jobs).
 */
export async function saveIndexAfterLoad(
  db: Db,
  config: Config,
  log: (msg: string, err?: unknown) => void,
): Promise<MatchStatus> {
  // Saved whether built or carried over the load. The carry or the build runs in a child process, as the
  // service's do: a carry holds the saved index and the merged one at once, past the CLI's 512 MB heap at a
  // million jobs (two rounds carried at 1.09M live ran it out of memory), and that memory goes with it.
  const file = matchIndexFile(config);
  // The child reads the primary too: a replica may not have the load yet.
  const builder = buildInProcess({ ...config, DATABASE_URL: db.url, DATABASE_READ_URL: undefined }, file);
  const service = new MatchService(db.write, log, file, builder, 0, false);
  await service.refresh();
  return service.status;
}

/**
 * Holds the index for the workers. `config.DATABASE_URL` must be set (the primary's resolved URL, which
 * the build thread connects to); the index is saved in DATA_DIR and read back at start, before the
 * workers start.
 */
export async function hostMatchIndex(db: Db, config: Config, log: (msg: string, err?: unknown) => void) {
  const file = matchIndexFile(config);
  // Loads are merged by the build process, which carries the saved index: this one answers meanwhile,
  // and holds apart the rows an expiry promoted until it has.
  const service = new MatchService(
    db.read,
    log,
    file,
    buildInProcess(config, file),
    undefined,
    false,
    undefined,
    true,
  );
  const removed = await removeLeftovers(file);
  if (removed.length) log(`match index: removed ${removed.join(', ')} (left by processes that have gone)`);
  // Each worker knows the version the index is at, and asks only for requests of that version: while
  // the index is built again, nothing waits on this process.
  const tell = (w: Worker | undefined) => {
    if (w?.isConnected())
      w.send(
        { type: 'match-version', version: service.status.version, apart: service.status.apart },
        undefined,
        () => {},
      );
  };
  service.onVersion = () => {
    for (const w of Object.values(cluster.workers ?? {})) tell(w);
  };
  const check = () => service.refresh().catch((err) => log('match index: version check failed', err));
  // Before any request is answered, the loads since the saved index are carried, in the build process (a
  // merge holds two indexes: that memory goes with it). A build, when they cannot be, is not waited for:
  // PostgreSQL answers until it ends.
  const saved = (await service.load().catch(() => false)) ? (service.status.version ?? 0) : undefined;
  if (saved !== undefined) log(`match index read from ${file} (version ${saved})`);
  if (
    saved !== undefined &&
    (await carriable(db.read, saved, carryLimit(service.status.rows ?? 0)).catch(() => false))
  ) {
    await check();
    if (service.status.version !== saved) log(`match index carried to version ${service.status.version}`);
    // What the first requests would make, made before any arrives (an index built later: at first asks).
    // A warm-up that fails leaves it to the first requests, which would meet the same failure alone.
    const started = Date.now();
    try {
      service.current?.warm();
      log(`match index warmed in ${Date.now() - started} ms`);
    } catch (err) {
      log('match index: the warm-up failed', err);
    }
  } else void check();
  const timer = setInterval(check, CHECK_MS);
  timer.unref();
  const onMessage = (
    worker: Worker,
    m: { type?: string; seq?: number; query?: MatchQuery; version?: number },
  ) => {
    const reply = (answer: unknown) => {
      if (worker.isConnected())
        worker.send({ type: 'match-answer', seq: m.seq, answer }, undefined, () => {});
    };
    // A worker admitted a request at a version the index has not reached: carried now, not at the next check.
    if (m?.type === 'match-catch-up' && typeof m.version === 'number')
      service.catchUp(m.version).then(
        () => reply(undefined),
        () => reply(undefined),
      );
    if (m?.type !== 'match' || !m.query) return;
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
