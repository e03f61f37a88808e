import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/demo.ts';
import { writeDemoDataset } from '../../src/demo/write.ts';
import { generateDataset, generateRound } from '../../src/demo/generate.ts';

const dirs: string[] = [];
async function tmp(): Promise<string> {
  const d = await mkdtemp(path.join(tmpdir(), 'demo-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function silence<T>(fn: () => Promise<T>): Promise<T> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  process.stdout.write = (() => true) as typeof process.stdout.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  return fn().finally(() => {
    process.stdout.write = out;
    process.stderr.write = err;
  });
}

describe('demo generate', () => {
  it('writes the base snapshot and the rounds, byte for byte what the generator yields', async () => {
    const dir = await tmp();
    const now = '2025-06-01T12:00:00.000Z';
    const code = await silence(() =>
      run(['generate', '--jobs', '300', '--seed', '5', '--out', dir, '--rounds', '2', '--now', now]),
    );
    expect(code).toBe(0);
    const opts = { jobs: 300, seed: 5, rounds: 2, now: new Date(now) };
    const expected = [...generateDataset(opts)].map((l) => `${JSON.stringify(l)}\n`).join('');
    expect(await readFile(path.join(dir, 'jobs.jsonl'), 'utf8')).toBe(expected);
    const round2 = [...generateRound(opts, 2)].map((l) => `${JSON.stringify(l)}\n`).join('');
    expect(await readFile(path.join(dir, 'round-2.jsonl'), 'utf8')).toBe(round2);
  });

  it('rejects bad arguments with exit code 2', async () => {
    expect(await silence(() => run(['generate', '--jobs', '0', '--out', '/tmp/x']))).toBe(2);
    expect(await silence(() => run(['generate', '--jobs', '10']))).toBe(2);
    expect(await silence(() => run(['generate', '--jobs', '10', '--out', '/tmp/x', '--bogus', '1']))).toBe(2);
    expect(await silence(() => run(['frobnicate']))).toBe(2);
  });

  it('writeDemoDataset writes jobs.jsonl and returns its path', async () => {
    const dir = await tmp();
    const files = await writeDemoDataset(dir, 200, 1);
    expect(files).toEqual([path.join(dir, 'jobs.jsonl')]);
    const lines = (await readFile(files[0], 'utf8')).trim().split('\n');
    expect(lines.filter((l) => l.includes('"kind":"posting"'))).toHaveLength(200);
  });
});
