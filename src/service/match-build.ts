// Entry of a match index build in a child process (match-host.ts): the saved index carried over the loads
// since it was saved, or a new one built; the rows and the garbage of reading a million of them stay in
// this process, and go with it; the index is written to the file it is told, as a saved index, for the
// service to read.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';
import { databaseDigest } from '../db/match-rows.ts';
import { openDb } from '../db/pool.ts';
import { buildIndex, MatchService } from '../search/match.ts';
import { saveIndex } from '../search/match-index.ts';

// A build for a service that has stopped is of no use: gone with it.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) process.exit(1);
}, 1000).unref();

const { config, out, saved } = JSON.parse(process.env.JPS_MATCH_BUILD ?? '{}') as {
  config: Config;
  out: string;
  saved?: string;
};
const db = await openDb(config);
try {
  // The saved index carried to the current version (the loads since merged in), else a new build; the
  // saved file itself is left to the service, which renames this one over it.
  const service = new MatchService(db.read, () => {}, saved, undefined, Number.POSITIVE_INFINITY);
  const carried = (await service.load()) && (await service.carryNow());
  const index = carried && service.current ? service.current : await buildIndex(db.read);
  // DATA_DIR need not exist yet with an external DATABASE_URL (nothing else has written there).
  await mkdir(path.dirname(out), { recursive: true });
  await writeFile(out, saveIndex(index, { db: await databaseDigest(db.read) }));
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
