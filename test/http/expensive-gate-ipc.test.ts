// The primary's gate asked by real workers over node:cluster's IPC: an account's bound holds across
// processes, a worker that dies holding a slot gives it back, refusals arrive as the same 429s.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const script = fileURLToPath(new URL('../helpers/gate-cluster.ts', import.meta.url));

it('workers share one gate: account 1 waits across processes until the worker holding it dies', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d) => {
    out += d;
  });
  // A step that never happens shows as the output so far, not a hung test.
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise((r) => child.on('exit', r));
  clearTimeout(timer);
  expect({ code, steps: out.trim().split('\n') }).toEqual({
    code: 0,
    steps: [
      'A: 1 granted',
      'B: 2 granted',
      'A: exited',
      'B: 1 granted',
      'B: refused 429 retry-after 1',
      'B: stats {"running":0,"waiting":0}',
      'B: done',
    ],
  });
}, 60_000);
