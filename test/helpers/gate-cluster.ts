// A primary holding the expensive-work gate for two real workers (node:cluster), for the gate's IPC
// test. Worker A takes account 1's one slot and is told to die holding it; worker B waits for account 1
// meanwhile (account 2 runs at once), is granted A's slot once A has gone, then finds account 1's queue
// full. Each step is printed by the primary, in the order it happened.
import cluster from 'node:cluster';
import type { ApiError } from '../../src/errors.ts';
import { hostExpensiveGate, remoteExpensiveGate } from '../../src/http/expensive-gate.ts';

const say = (m: string) => process.stdout.write(`${m}\n`);

if (cluster.isPrimary) {
  const stop = hostExpensiveGate({
    perProcess: 2,
    perKey: 1,
    queuePerKey: 1,
    waitMs: 30_000,
    kinds: 'heavy',
  });
  const a = cluster.fork({ ROLE: 'A' });
  const b = cluster.fork({ ROLE: 'B' });
  a.on('exit', () => say('A: exited'));
  // B is told to go once A holds its slot and B listens (a message sent before that would be lost).
  let ready = 0;
  cluster.on('message', (_w, m) => {
    if ((m === 'A: 1 granted' || m === 'B ready') && ++ready === 2) b.send('go');
    if (m === 'B ready' || typeof m !== 'string') return;
    say(m);
    if (m === 'B: 2 granted') a.send('die');
    if (m === 'B: done') {
      stop();
      b.kill();
      process.exit(0);
    }
  });
} else {
  const gate = remoteExpensiveGate(30_000);
  const send = (m: string) => process.send?.(m);
  if (process.env.ROLE === 'A') {
    await gate.enter(1);
    process.on('message', (m) => m === 'die' && process.exit(0));
    send('A: 1 granted');
  } else {
    process.on('message', async (m) => {
      if (m !== 'go') return;
      const one = gate.enter(1).then((release) => {
        send('B: 1 granted');
        return release;
      });
      const two = await gate.enter(2);
      send('B: 2 granted');
      const releaseOne = await one;
      const waiting = gate.enter(1);
      const refused = (await gate.enter(1).catch((e: ApiError) => e)) as ApiError;
      send(`B: refused ${refused.status} retry-after ${refused.headers['retry-after']}`);
      releaseOne();
      (await waiting)();
      two();
      send(`B: stats ${JSON.stringify(gate.stats)}`);
      send('B: done');
    });
    send('B ready');
  }
}
