// Request logging an operator can keep: one `debug` line per request (method, redacted and truncated
// URL, status, time), and at `info` one summary line per interval (count, statuses, latency quantiles).
// Repeated warnings (a database outage answers every request with 503) are logged once per interval.
import type { FastifyBaseLogger } from 'fastify';
import { redactUrl } from './redact.ts';

const SUMMARY_INTERVAL_MS = 60_000;

export class RequestLog {
  private count = 0;
  private statuses = new Map<number, number>();
  private times: number[] = [];
  private warned = new Map<string, { at: number; suppressed: number }>();
  private timer: NodeJS.Timeout;
  private lastCounters: Record<string, number> = {};

  constructor(
    private log: FastifyBaseLogger,
    private intervalMs = SUMMARY_INTERVAL_MS,
    /** Counters reported with each summary, as the change since the previous one (e.g. dropped sockets). */
    private counters: () => Record<string, number> = () => ({}),
  ) {
    this.timer = setInterval(() => this.flush(), intervalMs);
    this.timer.unref();
  }

  record(method: string, url: string, status: number, ms: number): void {
    if (this.log.level === 'debug' || this.log.level === 'trace')
      this.log.debug({ method, url: redactUrl(url), status, ms: Math.round(ms * 10) / 10 }, 'request');
    this.count++;
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    // A bounded sample is enough for quantiles.
    if (this.times.length < 10_000) this.times.push(ms);
  }

  /** Logs `msg` at warn at most once per interval; the next line says how many were suppressed. */
  warnOnce(key: string, obj: Record<string, unknown>, msg: string): void {
    const now = Date.now();
    const w = this.warned.get(key);
    if (w && now - w.at < this.intervalMs) {
      w.suppressed++;
      return;
    }
    this.log.warn({ ...obj, ...(w?.suppressed ? { suppressed: w.suppressed } : {}) }, msg);
    this.warned.set(key, { at: now, suppressed: 0 });
  }

  flush(): void {
    const now = this.counters();
    const changed = Object.fromEntries(
      Object.entries(now)
        .map(([k, v]) => [k, v - (this.lastCounters[k] ?? 0)] as const)
        .filter(([, d]) => d > 0),
    );
    this.lastCounters = { ...now };
    if (this.count === 0 && Object.keys(changed).length === 0) return;
    if (this.count === 0) {
      this.log.info({ ...changed, interval_s: this.intervalMs / 1000 }, 'connections');
      return;
    }
    const sorted = this.times.sort((a, b) => a - b);
    const q = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
    this.log.info(
      {
        requests: this.count,
        statuses: Object.fromEntries([...this.statuses].sort((a, b) => a[0] - b[0])),
        p50_ms: q(0.5),
        p99_ms: q(0.99),
        max_ms: Math.round(sorted[sorted.length - 1]),
        ...changed,
        interval_s: this.intervalMs / 1000,
      },
      'requests',
    );
    this.count = 0;
    this.statuses.clear();
    this.times = [];
  }

  close(): void {
    clearInterval(this.timer);
    this.flush();
  }
}
