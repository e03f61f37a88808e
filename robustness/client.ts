// HTTP clients of the robustness suite: a keep-alive load driver that tallies statuses, raw sockets, and
// the checks every response must pass (JSON, the three headers, never a 500).
import http from 'node:http';
import net from 'node:net';

export interface Tally {
  requests: number;
  statuses: Record<number, number>;
  /** Connection-level failures (refused, reset before any answer). */
  errors: number;
  /** Responses breaking the contract: a 500, missing headers, a body that is not JSON. */
  violations: string[];
}

export const newTally = (): Tally => ({ requests: 0, statuses: {}, errors: 0, violations: [] });

export function mergeInto(into: Tally, from: Tally): Tally {
  into.requests += from.requests;
  into.errors += from.errors;
  for (const [s, n] of Object.entries(from.statuses))
    into.statuses[Number(s)] = (into.statuses[Number(s)] ?? 0) + n;
  into.violations.push(...from.violations);
  return into;
}

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Checks the contract every response keeps; returns what is wrong, or undefined. */
export function contractProblem(path: string, a: Answer, method = 'GET'): string | undefined {
  if (a.status >= 500 && a.status !== 503)
    return `${a.status} for ${method} ${path}: ${a.body.slice(0, 200)}`;
  if (a.status === 503 && !a.headers['retry-after'] && !path.startsWith('/v1/health'))
    return `503 without Retry-After for ${path}`;
  if (a.status === 204) return undefined;
  if (a.headers['content-type'] !== 'application/json; charset=utf-8') return `content-type for ${path}`;
  if (a.headers['x-content-type-options'] !== 'nosniff') return `nosniff for ${path}`;
  if (a.headers['access-control-allow-origin'] !== '*') return `cors for ${path}`;
  if (method === 'HEAD') return undefined;
  try {
    JSON.parse(a.body);
  } catch {
    return `body not JSON for ${path}`;
  }
  return undefined;
}

export function request(
  port: number,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; agent?: http.Agent; timeoutMs?: number } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: opts.method ?? 'GET',
        headers: opts.headers,
        agent: opts.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

/** Runs `paths` through `concurrency` keep-alive connections; stops early when `until` says so. */
export async function drive(
  port: number,
  paths: string[] | (() => string),
  opts: { concurrency: number; headers?: Record<string, string>; until?: () => boolean; durationMs?: number },
): Promise<Tally & { latencies: number[] }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency });
  const tally = { ...newTally(), latencies: [] as number[] };
  const end = opts.durationMs ? Date.now() + opts.durationMs : Number.POSITIVE_INFINITY;
  let next = 0;
  const take = (): string | undefined => {
    if (opts.until?.() || Date.now() > end) return undefined;
    if (typeof paths === 'function') return paths();
    return next < paths.length ? paths[next++] : undefined;
  };
  const worker = async () => {
    for (let path = take(); path !== undefined; path = take()) {
      const t0 = performance.now();
      tally.requests++;
      try {
        const a = await request(port, path, { headers: opts.headers, agent });
        tally.latencies.push(performance.now() - t0);
        tally.statuses[a.status] = (tally.statuses[a.status] ?? 0) + 1;
        const problem = contractProblem(path, a);
        if (problem) tally.violations.push(problem);
      } catch {
        tally.errors++;
      }
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  agent.destroy();
  return tally;
}

/** Sends raw bytes and collects what comes back until the server closes or `timeoutMs` passes. */
export function raw(port: number, data: string | Buffer, timeoutMs = 3000): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    let out = '';
    const done = () => {
      clearTimeout(timer);
      s.destroy();
      resolve(out);
    };
    const timer = setTimeout(done, timeoutMs);
    s.on('data', (c) => {
      out += c.toString('latin1');
    });
    s.on('close', done);
    s.on('error', done);
    s.write(data);
  });
}

export function parseRawAnswer(text: string): Answer {
  const end = text.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = (end >= 0 ? text.slice(0, end) : text).split('\r\n');
  const headers: http.IncomingHttpHeaders = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0),
    headers,
    body: end >= 0 ? text.slice(end + 4) : '',
  };
}

export function quantile(values: number[], q: number): number {
  if (!values.length) return 0;
  const s = [...values].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10;
}
