// What follows a load by the `ingest` command: afterLoad (expiry, counts, vacuum), then, after a load of a
// sizeable share of the jobs, the match index of the new data saved where the service reads it, so that
// the service's first requests after the load are not PostgreSQL's cold counts; unless the index saved
// there is recent and can be carried over the load by the service itself (a running one does so anyway).
import type { Config } from '../config.ts';
import type { Db } from '../db/pool.ts';
import { carriedByTheService, matchIndexFile, saveIndexAfterLoad } from '../service/match-host.ts';
import { afterLoad } from '../service/schedules.ts';

export async function afterIngest(db: Db, config: Config, written: number, quiet: boolean): Promise<void> {
  if (!(await afterLoad(db, written)) || !config.MATCH_INDEX) return;
  const say = (m: string) => {
    if (!quiet) process.stderr.write(`${m}\n`);
  };
  if (await carriedByTheService(db, config)) {
    say(`match index: ${matchIndexFile(config)} is left for the service to carry over the load`);
    return;
  }
  say('building the match index of the loaded data…');
  const started = Date.now();
  // A failed build leaves the load as it is: the service builds its own.
  const status = await saveIndexAfterLoad(db, config, (m, err) =>
    process.stderr.write(`${m}${err ? `: ${(err as Error).message}` : ''}\n`),
  );
  const s = ((Date.now() - started) / 1000).toFixed(1);
  if (status.builds)
    say(`match index: ${status.rows} live jobs in ${s} s, saved in ${matchIndexFile(config)}`);
  else if (status.carried) say(`match index: carried over the load in ${s} s`);
}
