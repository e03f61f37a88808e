// A local mirror of the live population, kept through the three feeds (the spec's Events section):
// /v1/jobs/feed adds, /v1/jobs/modified upserts, /v1/jobs/expired deletes. The mirror and the three
// resume timestamps are stored together in one JSON file, rewritten atomically after every page, so a
// restarted program resumes each window from the last timestamp it stored (the windows are inclusive,
// and replaying rows is harmless).
//
//   JPS_URL=http://127.0.0.1:8080 JPS_KEY=<key> MIRROR_FILE=mirror.json npx tsx examples/sync/mirror.ts
//   options: --once (catch up, then exit), --interval=SECONDS (between polls, default 60)
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { jobsClient, type Job } from '../client/index.ts';

export interface MirrorState {
  created_gte: string;
  modified_gte: string;
  expired_gte: string;
  jobs: Record<string, Job>;
}

const EPOCH = '1970-01-01T00:00:00Z';

export function loadState(file: string): MirrorState {
  if (!existsSync(file)) return { created_gte: EPOCH, modified_gte: EPOCH, expired_gte: EPOCH, jobs: {} };
  return JSON.parse(readFileSync(file, 'utf8')) as MirrorState;
}

function saveState(file: string, state: MirrorState): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file); // a crash leaves the previous state, never half of one
}

/** One pass over the three feeds, each drained to its end. */
export async function poll(api: ReturnType<typeof jobsClient>, file: string, state: MirrorState) {
  // A cursor continues the request it came from: the window start stays as it was.
  for (let cursor: string | undefined, from = state.created_gte; ; ) {
    const { data, error } = await api.GET('/v1/jobs/feed', {
      params: { query: { created_gte: from, limit: 200, cursor } },
    });
    if (error) throw new Error(`feed: ${JSON.stringify(error)}`);
    for (const job of data.data) {
      state.jobs[job.id] = job;
      state.created_gte = job.created_at;
    }
    saveState(file, state);
    if (!data.next_cursor) break;
    cursor = data.next_cursor;
  }
  // A cursor continues the request it came from: the window start stays as it was.
  for (let cursor: string | undefined, from = state.modified_gte; ; ) {
    const { data, error } = await api.GET('/v1/jobs/modified', {
      params: { query: { modified_gte: from, limit: 200, cursor } },
    });
    if (error) throw new Error(`modified: ${JSON.stringify(error)}`);
    for (const job of data.data) {
      state.jobs[job.id] = job;
      if (job.modified_at) state.modified_gte = job.modified_at;
    }
    saveState(file, state);
    if (!data.next_cursor) break;
    cursor = data.next_cursor;
  }
  // A cursor continues the request it came from: the window start stays as it was.
  for (let cursor: string | undefined, from = state.expired_gte; ; ) {
    const { data, error } = await api.GET('/v1/jobs/expired', {
      params: { query: { expired_gte: from, limit: 1000, cursor } },
    });
    if (error) throw new Error(`expired: ${JSON.stringify(error)}`);
    for (const row of data.data) {
      delete state.jobs[row.id];
      // expired_at is 'YYYY-MM-DD HH:MM:SS' in UTC.
      state.expired_gte = `${row.expired_at.replace(' ', 'T')}Z`;
    }
    saveState(file, state);
    if (!data.next_cursor) break;
    cursor = data.next_cursor;
  }
}

async function main() {
  const base = process.env.JPS_URL ?? 'http://127.0.0.1:8080';
  const key = process.env.JPS_KEY;
  const file = process.env.MIRROR_FILE ?? 'mirror.json';
  if (!key) throw new Error('set JPS_KEY to an API key');
  const once = process.argv.includes('--once');
  const interval = Number(process.argv.find((a) => a.startsWith('--interval='))?.split('=')[1] ?? 60);
  const api = jobsClient(base, key);
  const state = loadState(file);
  for (;;) {
    await poll(api, file, state);
    process.stdout.write(`${new Date().toISOString()} mirror: ${Object.keys(state.jobs).length} jobs\n`);
    if (once) return;
    await new Promise((r) => setTimeout(r, interval * 1000));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
