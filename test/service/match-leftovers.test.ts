// Temporary files of match index builds and saves whose process has gone are removed when a service
// starts hosting the index; those of live processes, and other files, stay.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeLeftovers } from '../../src/service/match-host.ts';

let dir: string;

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('removeLeftovers', () => {
  it('removes the temporary files of processes that have gone, and nothing else', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'jps-leftovers-'));
    // A pid that surely ran and has ended: a child process that exited.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const names = [
      `match-index.bin.build-${dead}.tmp`,
      `match-index.bin.${dead}.tmp`,
      `match-index.bin.build-${process.pid}.tmp`,
      `match-index.bin.${process.pid}.tmp`,
      'match-index.bin',
      `match-index.binx.build-${dead}.tmp`,
      'credentials.json',
    ];
    for (const n of names) await writeFile(path.join(dir, n), 'x');
    const removed = await removeLeftovers(path.join(dir, 'match-index.bin'));
    expect(removed.sort()).toEqual([`match-index.bin.${dead}.tmp`, `match-index.bin.build-${dead}.tmp`]);
    expect((await readdir(dir)).sort()).toEqual(names.slice(2).sort());
    // A directory that does not exist yet: nothing to remove.
    expect(await removeLeftovers(path.join(dir, 'none', 'match-index.bin'))).toEqual([]);
  });
});
