// Worker-thread entry of a match index build (match-host.ts): the rows and the garbage of reading them
// stay in this thread's heap, which goes with the thread; the primary receives the index as one buffer.
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { openDb } from '../db/pool.ts';
import { buildIndexBytes } from '../search/match.ts';

const db = await openDb((workerData as { config: Config }).config);
try {
  const bytes = await buildIndexBytes(db.read);
  parentPort!.postMessage({ bytes }, [bytes.buffer as ArrayBuffer]);
} catch (err) {
  parentPort!.postMessage({ error: (err as Error).message });
} finally {
  await db.close();
}
