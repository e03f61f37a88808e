// A primary running superviseWorkers over tiny HTTP workers, for the supervisor's tests. WORKER_MODE:
// `serve` (listen and stay up), `crash` (die before listening), `flap` (listen, then die after 100 ms).
import cluster from 'node:cluster';
import http from 'node:http';
import { superviseWorkers } from '../../src/service/supervisor.ts';

const mode = process.env.WORKER_MODE ?? 'serve';
const say = (m: string) => process.stdout.write(`${m}\n`);

if (cluster.isPrimary) {
  const workers = superviseWorkers({
    workers: 2,
    env: process.env,
    log: say,
    baseDelayMs: 200,
    // Wide enough that every death of the flapping test counts, however slowly a busy machine starts
    // its workers.
    windowMs: 60_000,
    onReady: () => say('all ready'),
    onGiveUp: (reason) => {
      say(`cannot serve: ${reason}`);
      void workers.stop().then(() => process.exit(1));
    },
  });
  cluster.on('message', (w, m) => {
    if (m === 'ready') say(`worker ${w.process.pid} ready`);
  });
  process.on('SIGTERM', () => void workers.stop().then(() => process.exit(0)));
} else if (mode === 'crash') {
  process.exit(3);
} else {
  const server = http.createServer((_req, res) => res.end('{}'));
  server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
    process.send?.('ready');
    if (mode === 'flap') setTimeout(() => process.exit(4), 100);
  });
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
