// Drives a server with autocannon (closed loop, keep-alive connections, no pipelining) and measures
// every response's latency itself, so p95 is exact (autocannon's own histogram has no p95).
import autocannon from 'autocannon';
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

/** Header naming the request kind; the service ignores it, the baseline server answers by it. */
export const KIND_HEADER = 'x-bench-kind';

interface Walk {
  path: string;
  page: number;
}

interface Ctx {
  kind?: Kind;
  page?: number;
  start?: string;
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
  follow(start: string, page: number, body: string) {
    if (!this.kind.walk || page + 1 >= this.kind.walk) return;
    const at = body.lastIndexOf('"next_cursor":"');
    if (at < 0) return;
    const from = at + '"next_cursor":"'.length;
    const cursor = body.slice(from, body.indexOf('"', from));
    this.walks.push({ path: `${start}&cursor=${encodeURIComponent(cursor)}`, page: page + 1 });
  }
}

/** A fixed interleaving of the kinds by weight, spread evenly (largest-remainder over 100 slots). */
export function mixSequence(kinds: Kind[]): Kind[] {
  const slots: { kind: Kind; at: number }[] = [];
  for (const k of kinds) for (let j = 0; j < k.weight; j++) slots.push({ kind: k, at: (j + 0.5) / k.weight });
  return slots.sort((a, b) => a.at - b.at || a.kind.name.localeCompare(b.kind.name)).map((s) => s.kind);
}

/** autocannon's client keeps the request iterator's context, the one `setupRequest` was given. */
function clientContext(client: unknown): Ctx {
  return (client as { requestIterator?: { context?: Ctx } }).requestIterator?.context ?? {};
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
  const anyWalk = kinds.some((k) => k.walk);
  let turn = 0;
  const request: autocannon.Request = {
    method: 'GET',
    setupRequest: (req, context) => {
      const ctx = context as Ctx;
      const kind = sequence[turn++ % sequence.length];
      const w = sources.get(kind.name)!.next();
      ctx.kind = kind;
      ctx.page = w.page;
      ctx.start = w.page === 0 ? w.path : w.path.slice(0, w.path.lastIndexOf('&cursor='));
      return {
        ...req,
        path: w.path,
        headers: { authorization: `Bearer ${key}`, [KIND_HEADER]: kind.name },
      };
    },
  };
  // A response body is only collected when onResponse is set: set it exactly when some kind walks.
  if (anyWalk) {
    request.onResponse = (status, body, context) => {
      const ctx = context as Ctx;
      if (status === 200 && ctx.kind?.walk) sources.get(ctx.kind.name)!.follow(ctx.start!, ctx.page!, body);
    };
  }
  let latencies = new Float64Array(1 << 16);
  let n = 0;
  let bytes = 0;
  const statuses: Record<string, number> = {};
  const perKind = new Map<string, { ms: number[]; non2xx: number }>();
  const started = performance.now();
  let finish: (err: Error | null, result: autocannon.Result) => void = () => {};
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    finish = (err, result) => (err ? reject(err) : resolve(result));
  });
  const instance = autocannon(
    { url: base, connections, duration, timeout: 10, pipelining: 1, requests: [request] },
    (err, result) => finish(err, result),
  );
  instance.on('response', (client, statusCode, resBytes, responseTime) => {
    // The client's context still holds the answered request's kind: the next request is set up after this.
    const name = sequence.length > 1 ? (clientContext(client).kind?.name ?? '?') : undefined;
    timeline?.(name ?? sequence[0].name, responseTime, statusCode, clientContext(client).start ?? '');
    if (name) {
      const k = perKind.get(name) ?? { ms: [], non2xx: 0 };
      perKind.set(name, k);
      k.ms.push(responseTime);
      if (statusCode < 200 || statusCode > 299) k.non2xx++;
    }
    if (n === latencies.length) {
      const grown = new Float64Array(n * 2);
      grown.set(latencies);
      latencies = grown;
    }
    latencies[n++] = responseTime;
    bytes += resBytes;
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  const result = await done;
  const seconds = Math.max(result.duration ?? 0, (performance.now() - started) / 1000 - 0.05);
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
    errors: result.errors + result.timeouts,
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
