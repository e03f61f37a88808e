// Worker supervision with real processes: a killed worker is replaced and logged, replacements that
// keep dying back off, and a service that cannot serve at all makes the primary exit non-zero.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { serviceExecArgv } from '../../src/cli/serve.ts';
import { WORKER_MALLOC_ENV, workerEnv, workerExecArgv } from '../../src/service/supervisor.ts';

const supervisor = fileURLToPath(new URL('../../src/service/supervisor.ts', import.meta.url));
const script = fileURLToPath(new URL('../helpers/supervised.ts', import.meta.url));
const started: ChildProcess[] = [];
afterEach(() => {
  for (const c of started.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

function startPrimary(mode: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, WORKER_MODE: mode, PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  let out = '';
  child.stdout!.on('data', (d) => {
    out += d;
  });
  const waitFor = async (re: RegExp, ms: number): Promise<RegExpMatchArray> => {
    const end = Date.now() + ms;
    for (;;) {
      const m = out.match(re);
      if (m) return m;
      if (Date.now() > end) throw new Error(`no ${re} within ${ms} ms in:\n${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, waitFor, exit, output: () => out };
}

describe('worker supervision', () => {
  it('a worker killed with SIGKILL is replaced within seconds, and the event is logged', async () => {
    const p = startPrimary('serve');
    await p.waitFor(/all ready/, 20_000);
    const pid = Number(p.output().match(/worker (\d+) ready/)![1]);
    const before = Date.now();
    process.kill(pid, 'SIGKILL');
    await p.waitFor(new RegExp(`worker ${pid} exited \\(signal SIGKILL\\); starting a replacement`), 5000);
    const ready = [...p.output().matchAll(/worker (\d+) ready/g)].map((m) => Number(m[1]));
    await p.waitFor(/(worker \d+ ready[\s\S]*){3}/, 10_000);
    expect(Date.now() - before).toBeLessThan(10_000);
    expect(new Set([...p.output().matchAll(/worker (\d+) ready/g)].map((m) => m[1])).size).toBe(3);
    expect(ready).toContain(pid);
    // SIGTERM still stops everything cleanly.
    p.child.kill('SIGTERM');
    expect(await p.exit).toBe(0);
  });

  it('workers that keep dying are replaced with growing delays', async () => {
    const p = startPrimary('flap');
    const m = await p.waitFor(/in (\d+) ms[\s\S]*in (\d+) ms[\s\S]*in (\d+) ms/, 30_000);
    const delays = [Number(m[1]), Number(m[2]), Number(m[3])];
    expect(delays[1]).toBeGreaterThan(delays[0]);
    expect(delays[2]).toBeGreaterThan(delays[1]);
  });

  it('when no worker can start, the primary gives up and exits non-zero', async () => {
    const p = startPrimary('crash');
    const code = await Promise.race([p.exit, new Promise((r) => setTimeout(() => r('timeout'), 30_000))]);
    expect(code).toBe(1);
    expect(p.output()).toMatch(/cannot serve: 5 workers in a row died before listening \(last: code 3\)/);
  });
});

describe('the Node flags of a worker', () => {
  it("are the primary's plus a smaller young generation", () => {
    expect(workerExecArgv(['--enable-source-maps'])).toEqual([
      '--enable-source-maps',
      '--max-semi-space-size=8',
    ]);
  });
  it('leave a young generation chosen by the operator alone, as a flag or in NODE_OPTIONS', () => {
    expect(workerExecArgv(['--max-semi-space-size=32'])).toEqual(['--max-semi-space-size=32']);
    expect(workerExecArgv([], '--max-old-space-size=300 --max_semi_space_size=4')).toEqual([]);
  });
  it("under `npm run cli -- serve` are not the loader's larger young generation", () => {
    const cli = ['--max-old-space-size=512', '--max-semi-space-size=64', '--import', 'tsx'];
    expect(workerExecArgv(serviceExecArgv(cli))).toEqual([
      '--max-old-space-size=512',
      '--import',
      'tsx',
      '--max-semi-space-size=8',
    ]);
  });
});

describe("the primary's young generation", () => {
  // A process that keeps two million small objects: those that survive scavenges make V8 grow its young
  // generation. Run under each Node the suite runs on, so that a V8 that stops reading the growth factor at
  // run time fails here.
  const youngAfterSurvivors = (keepSmall: boolean): number => {
    const code = `import v8 from 'node:v8';
      ${keepSmall ? `(await import(${JSON.stringify(supervisor)})).keepYoungGenerationSmall();` : ''}
      const kept = [];
      for (let i = 0; i < 2e6; i++) kept.push({ i });
      const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      process.stdout.write(young.space_size + ' ' + kept.length);`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code]);
    return Number(out.toString().split(' ')[0]) / 2 ** 20;
  };

  it('stays at a few megabytes once kept small, where V8 grows it to its largest', () => {
    // Node 20 and 22 grow it to 32 MB, Node 24 to 64; kept small, 4 MB (4.5 on Node 24).
    const grown = youngAfterSurvivors(false);
    const kept = youngAfterSurvivors(true);
    expect(grown).toBeGreaterThanOrEqual(16);
    expect(kept).toBeLessThanOrEqual(Math.min(8, grown / 4));
  });
});

describe("the allocator's settings of a worker", () => {
  it('are added to what the primary passes on, unless the operator chose them', () => {
    expect(workerEnv({}, { A: '1' })).toEqual({
      MALLOC_MMAP_THRESHOLD_: '69632',
      MALLOC_TRIM_THRESHOLD_: '1048576',
      A: '1',
    });
    expect(workerEnv({ MALLOC_MMAP_THRESHOLD_: '65536' })).toEqual({ MALLOC_TRIM_THRESHOLD_: '1048576' });
  });

  it.skipIf(process.platform !== 'linux' || process.env.MALLOC_MMAP_THRESHOLD_ !== undefined)(
    'reach the forked workers',
    async () => {
      const p = startPrimary('serve');
      await p.waitFor(/all ready/, 20_000);
      const pid = Number(p.output().match(/worker (\d+) ready/)![1]);
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      for (const [k, v] of Object.entries(WORKER_MALLOC_ENV)) expect(environ).toContain(`${k}=${v}`);
      p.child.kill('SIGTERM');
      expect(await p.exit).toBe(0);
    },
  );
  it('are the ones `npm start` gives the process it starts (which serves HTTP itself up to two cores)', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const words = (pkg.scripts.start as string).split('&&').at(-1)!.trim().split(/\s+/);
    for (const [k, v] of Object.entries(WORKER_MALLOC_ENV)) expect(words).toContain(`${k}=${v}`);
    expect(words.indexOf('node')).toBeGreaterThan(words.indexOf('MALLOC_TRIM_THRESHOLD_=1048576'));
  });
});
