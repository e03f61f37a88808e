// Drives a server: `connections` closed loops over keep-alive connections (node:http's agent, its native
// parser), no pipelining, every response's latency recorded (exact percentiles). A body is read as the
// bytes that arrive and kept only where its kind follows cursors, so the generator's own cost, which
// shares the machine's cores with the server, stays small for large pages (docs in bench/README.md).
import http from 'node:http';
import type { Kind } from './mix.ts';

export interface Figures {
  requests: number;
  seconds: number;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
  errors: number;
  non2xx: number;
  statuses: Record<string, number>;
  mean_bytes: number;
  /**
   * One kind driven alone through more requests than it has distinct ones: the figures of the first
   * round of them (the responses in the order they came, so within a connection count of it), each
   * request's first time, before anything the service keeps per request could answer it.
   */
  first_pass?: { requests: number; p50_ms: number; p99_ms: number };
  /** A mix's figures per kind (the kind of each response, as sent): where its time goes. */
  by_kind?: Record<
    string,
    { requests: number; p50_ms: number; p99_ms: number; max_ms: number; non2xx: number }
  >;
}

const NEXT_CURSOR = Buffer.from('"next_cursor":"');
/** A request unanswered this long is given up and counted as an error. */
const TIMEOUT_MS = 10_000;

/** Header naming the request kind; the service ignores it, the baseline server answers by it. */
export const KIND_HEADER = 'x-bench-kind';

interface Walk {
  path: string;
  page: number;
}

/** Round-robin over the paths of a kind, following cursors where the kind walks. */
class Source {
  private i = 0;
  private walks: Walk[] = [];
  constructor(readonly kind: Kind) {}
  next(): Walk {
    const w = this.walks.pop();
    if (w) return w;
    return { path: this.kind.paths[this.i++ % this.kind.paths.length], page: 0 };
  }
  follow(start: string, page: number, body: Buffer) {
    if (!this.kind.walk || page + 1 >= this.kind.walk) return;
    const at = body.lastIndexOf(NEXT_CURSOR);
    if (at < 0) return;
    const from = at + NEXT_CURSOR.length;
    const cursor = body.toString('latin1', from, body.indexOf('"', from));
    this.walks.push({ path: `${start}&cursor=${encodeURIComponent(cursor)}`, page: page + 1 });
  }
}

/** A fixed interleaving of the kinds by weight, spread evenly (largest-remainder over 100 slots). */
export function mixSequence(kinds: Kind[]): Kind[] {
  const slots: { kind: Kind; at: number }[] = [];
  for (const k of kinds) for (let j = 0; j < k.weight; j++) slots.push({ kind: k, at: (j + 0.5) / k.weight });
  return slots.sort((a, b) => a.at - b.at || a.kind.name.localeCompare(b.kind.name)).map((s) => s.kind);
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const r1 = (x: number) => Math.round(x * 10) / 10;

/** Runs `kinds` (one kind, or the whole mix in its fixed sequence) against `base` for `duration` seconds. */
export async function drive(
  base: string,
  key: string,
  kinds: Kind[],
  duration: number,
  connections: number,
  /** Called as each response arrives, with its kind, latency, status and path (a walk's without its cursor). */
  timeline?: (kind: string, ms: number, status: number, path: string) => void,
): Promise<Figures> {
  const sources = new Map(kinds.map((k) => [k.name, new Source(k)]));
  const sequence = kinds.length === 1 ? kinds : mixSequence(kinds);
  let turn = 0;
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let bytes = 0;
  let errors = 0;
  const statuses: Record<string, number> = {};
  const perKind = new Map<string, { ms: number[]; non2xx: number }>();
  const record = (kind: string, start: string, ms: number, status: number, size: number) => {
    timeline?.(kind, ms, status, start);
    if (sequence.length > 1) {
      const k = perKind.get(kind) ?? { ms: [], non2xx: 0 };
      perKind.set(kind, k);
      k.ms.push(ms);
      if (status < 200 || status > 299) k.non2xx++;
    }
    if (n === latencies.length) {
      const grown = new Float64Array(n * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = ms;
    bytes += size;
    statuses[status] = (statuses[status] ?? 0) + 1;
  };
  const url = new URL(base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections, keepAliveMsecs: 60_000 });
  const auth = `Bearer ${key}`;
  const started = performance.now();
  const deadline = started + duration * 1000;
  // One request of the closed loop: the body is read as bytes and kept only where the kind walks. A
  // connection error, a body cut short or a socket silent for TIMEOUT_MS counts as an error.
  const once = (kind: Kind) =>
    new Promise<void>((resolve) => {
      const w = sources.get(kind.name)!.next();
      const start = w.page === 0 ? w.path : w.path.slice(0, w.path.lastIndexOf('&cursor='));
      const t0 = performance.now();
      let settled = false;
      const failed = () => {
        if (settled) return;
        settled = true;
        errors++;
        resolve();
      };
      const headers = { authorization: auth, [KIND_HEADER]: kind.name };
      const req = http.get({ agent, hostname: url.hostname, port: url.port, path: w.path, headers });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error('timeout')));
      req.on('error', failed);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (kind.walk) chunks.push(chunk);
        });
        res.on('error', failed);
        res.on('close', () => {
          if (!res.complete) return failed();
          if (settled) return;
          settled = true;
          const status = res.statusCode ?? 0;
          record(kind.name, start, performance.now() - t0, status, size);
          if (status === 200 && kind.walk)
            sources.get(kind.name)!.follow(start, w.page, Buffer.concat(chunks));
          resolve();
        });
      });
    });
  const loop = async () => {
    while (performance.now() < deadline) await once(sequence[turn++ % sequence.length]);
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.slice(0, n).sort();
  const distinct = kinds.length === 1 && !kinds[0].walk ? kinds[0].paths.length : n;
  const first = distinct < n ? latencies.slice(0, distinct).sort() : undefined;
  const non2xx = Object.entries(statuses)
    .filter(([s]) => !s.startsWith('2'))
    .reduce((a, [, c]) => a + c, 0);
  return {
    requests: n,
    seconds: r1(seconds),
    rps: r1(n / seconds),
    p50_ms: r1(percentile(sorted, 50)),
    p95_ms: r1(percentile(sorted, 95)),
    p99_ms: r1(percentile(sorted, 99)),
    max_ms: r1(sorted.length ? sorted[sorted.length - 1] : 0),
    errors,
    non2xx,
    statuses,
    mean_bytes: n ? Math.round(bytes / n) : 0,
    ...(first && {
      first_pass: {
        requests: first.length,
        p50_ms: r1(percentile(first, 50)),
        p99_ms: r1(percentile(first, 99)),
      },
    }),
    ...(perKind.size && {
      by_kind: Object.fromEntries(
        [...perKind].map(([name, k]) => {
          const ms = Float64Array.from(k.ms).sort();
          return [
            name,
            {
              requests: ms.length,
              p50_ms: r1(percentile(ms, 50)),
              p99_ms: r1(percentile(ms, 99)),
              max_ms: r1(ms[ms.length - 1]),
              non2xx: k.non2xx,
            },
          ];
        }),
      ),
    }),
  };
}
