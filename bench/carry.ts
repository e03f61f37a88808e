// The match index carried over the loads since it was saved, timed step by step as the builder child of
// an `ingest` or of the service does it (src/service/match-build.ts): read the saved file, carry it to the
// database's version, serialize, write. Save a copy of the index before loading rounds, then:
//   DATABASE_URL=<the bench database> npx tsx bench/carry.ts SAVED_COPY [OUT=SAVED_COPY.carried]
import { writeFile } from 'node:fs/promises';
import { loadConfig } from '../src/config.ts';
import { databaseDigest } from '../src/db/match-rows.ts';
import { openDb } from '../src/db/pool.ts';
import { saveIndex } from '../src/search/match-index.ts';
import { MatchService } from '../src/search/match.ts';

const [saved, out = `${saved}.carried`] = process.argv.slice(2);
if (!saved) {
  process.stderr.write('usage: DATABASE_URL=… npx tsx bench/carry.ts SAVED_COPY [OUT]\n');
  process.exit(2);
}
const db = await openDb(loadConfig());
const seconds: Record<string, number> = {};
let mark = performance.now();
const lap = (step: string) => {
  const now = performance.now();
  seconds[step] = Math.round(now - mark) / 1000;
  mark = now;
};
try {
  const service = new MatchService(
    db.read,
    (m) => process.stderr.write(`${m}\n`),
    saved,
    undefined,
    Infinity,
  );
  const loaded = await service.load();
  lap('read');
  const carried = loaded && (await service.carryNow());
  lap('carry');
  if (!carried || !service.current) throw new Error('the saved index could not be read or carried');
  const bytes = saveIndex(service.current, { db: await databaseDigest(db.read) });
  lap('serialize');
  await writeFile(out, bytes);
  lap('write');
  process.stdout.write(
    `${JSON.stringify({ rows: service.current.size, version: service.current.version, seconds })}\n`,
  );
} finally {
  await db.close();
}
