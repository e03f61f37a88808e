// Entry of the first run's demo load in a child process (setup.ts, loadDemoApart): the generator, the
// write path, enrichment and its reference data are loaded here and leave with the process, so that the
// service's primary does not keep them. Progress goes to stderr, one message a line; the number of
// load's outcome (DemoLoad, or null) is the one line on stdout, as JSON.
import type { Config } from '../config.ts';
import { openDb } from '../db/pool.ts';
import { loadDemoIfEmpty } from './setup.ts';

const { config } = JSON.parse(process.env.JPS_DEMO_LOAD ?? '{}') as { config: Config };
const db = await openDb(config);
try {
  const loaded = await loadDemoIfEmpty(db, config, (m) => process.stderr.write(`${m}\n`));
  process.stdout.write(`${JSON.stringify(loaded ?? null)}\n`);
} catch (err) {
  process.stderr.write(`${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await db.close();
}
