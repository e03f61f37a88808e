// Polite HTTP for the crawler: per-host spacing, timeouts, retries with exponential backoff on
// 5xx/429/network errors (honouring Retry-After), conditional requests, and no redirects: a 3xx
// (a board moved to a marketing page, a login wall) is a failed fetch, never content.

export interface HttpOptions {
  /** Per request, body included. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; doubles per retry. */
  backoffMs: number;
  maxBackoffMs: number;
  /** A Retry-After longer than this is not waited for: the fetch fails. */
  maxRetryAfterMs: number;
  /** Minimum spacing between request starts to one host. */
  minHostDelayMs: number;
  maxBodyBytes: number;
  userAgent: string;
  sleep: (ms: number) => Promise<void>;
  /** Jitter source in [0, 1); the delay is scaled by 0.5 + random/2. */
  random: () => number;
}

const DEFAULT_HTTP: HttpOptions = {
  timeoutMs: 20_000,
  retries: 3,
  backoffMs: 1000,
  maxBackoffMs: 30_000,
  maxRetryAfterMs: 120_000,
  minHostDelayMs: 1000,
  maxBodyBytes: 50 * 1024 * 1024,
  userAgent: 'job-postings-search-crawler/1.0',
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  random: Math.random,
};

export class FetchError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

export interface Validators {
  etag?: string;
  lastModified?: string;
}

export interface RequestSpec {
  url: string;
  method?: 'GET' | 'POST';
  /** JSON body for POST. */
  json?: unknown;
  accept?: string;
  /** Sent as If-None-Match / If-Modified-Since; a 304 then means unchanged. */
  validators?: Validators;
}

export type Response200 = { status: 200; body: string; validators: Validators };
export type Response304 = { status: 304 };

const RETRYABLE = (s: number) => s === 429 || s >= 500;

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? undefined : Math.max(0, t - now);
}

export class HttpClient {
  readonly opts: HttpOptions;
  private nextAt = new Map<string, number>();
  /** Requests sent (retries included). */
  requests = 0;
  /** Delays waited between attempts, for reports and tests. */
  readonly waits: number[] = [];

  constructor(opts: Partial<HttpOptions> = {}) {
    this.opts = { ...DEFAULT_HTTP, ...opts };
  }

  private async politeness(host: string): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, this.nextAt.get(host) ?? 0);
    // The slot is reserved before waiting so concurrent callers queue behind each other.
    this.nextAt.set(host, at + this.opts.minHostDelayMs);
    if (at > now) await this.opts.sleep(at - now);
  }

  private backoff(attempt: number): number {
    const base = Math.min(this.opts.maxBackoffMs, this.opts.backoffMs * 2 ** attempt);
    return Math.round(base * (0.5 + this.opts.random() / 2));
  }

  async request(spec: RequestSpec): Promise<Response200 | Response304> {
    const url = new URL(spec.url);
    let lastError = '';
    for (let attempt = 0; ; attempt++) {
      await this.politeness(url.host);
      this.requests++;
      let res: globalThis.Response;
      try {
        res = await fetch(url, {
          method: spec.method ?? 'GET',
          redirect: 'manual',
          signal: AbortSignal.timeout(this.opts.timeoutMs),
          headers: this.headers(spec),
          body: spec.json === undefined ? undefined : JSON.stringify(spec.json),
        });
      } catch (err) {
        lastError = networkMessage(err, this.opts.timeoutMs);
        if (attempt < this.opts.retries) {
          await this.wait(this.backoff(attempt));
          continue;
        }
        throw new FetchError(`${lastError} (after ${attempt + 1} attempts)`);
      }
      if (res.status === 200) {
        let body: string;
        try {
          body = await this.readBody(res);
        } catch (err) {
          // A body cut off mid-way is retried like a network error; an oversized one is not.
          if (!(err instanceof FetchError) || err.status !== undefined || /exceeds/.test(err.message))
            throw err;
          if (attempt < this.opts.retries) {
            await this.wait(this.backoff(attempt));
            continue;
          }
          throw err;
        }
        return {
          status: 200,
          body,
          validators: {
            etag: res.headers.get('etag') ?? undefined,
            lastModified: res.headers.get('last-modified') ?? undefined,
          },
        };
      }
      await res.body?.cancel().catch(() => {});
      if (res.status === 304) {
        if (spec.validators?.etag || spec.validators?.lastModified) return { status: 304 };
        throw new FetchError('304 Not Modified to an unconditional request', 304);
      }
      if (res.status >= 300 && res.status < 400) {
        const to = res.headers.get('location');
        throw new FetchError(`redirected (${res.status})${to ? ` to ${to}` : ''}`, res.status);
      }
      if (!RETRYABLE(res.status)) throw new FetchError(`HTTP ${res.status}`, res.status);
      lastError = `HTTP ${res.status}`;
      const after = retryAfterMs(res.headers.get('retry-after'));
      if (attempt >= this.opts.retries) {
        throw new FetchError(`${lastError} (after ${attempt + 1} attempts)`, res.status);
      }
      if (after !== undefined && after > this.opts.maxRetryAfterMs) {
        throw new FetchError(
          `${lastError} with Retry-After ${Math.round(after / 1000)}s, longer than allowed`,
          res.status,
        );
      }
      await this.wait(after ?? this.backoff(attempt));
    }
  }

  private async wait(ms: number): Promise<void> {
    this.waits.push(ms);
    await this.opts.sleep(ms);
  }

  private headers(spec: RequestSpec): Record<string, string> {
    const h: Record<string, string> = {
      'user-agent': this.opts.userAgent,
      accept: spec.accept ?? 'application/json',
    };
    if (spec.json !== undefined) h['content-type'] = 'application/json';
    if (spec.validators?.etag) h['if-none-match'] = spec.validators.etag;
    if (spec.validators?.lastModified) h['if-modified-since'] = spec.validators.lastModified;
    return h;
  }

  private async readBody(res: globalThis.Response): Promise<string> {
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > this.opts.maxBodyBytes) {
      await res.body?.cancel().catch(() => {});
      throw new FetchError(`body of ${declared} bytes exceeds the limit`);
    }
    try {
      const buf = await res.arrayBuffer();
      if (buf.byteLength > this.opts.maxBodyBytes)
        throw new FetchError(`body of ${buf.byteLength} bytes exceeds the limit`);
      return new TextDecoder('utf-8').decode(buf);
    } catch (err) {
      if (err instanceof FetchError) throw err;
      throw new FetchError(`reading the body failed: ${networkMessage(err, this.opts.timeoutMs)}`);
    }
  }
}

function networkMessage(err: unknown, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `network error: ${cause ?? e?.message ?? String(err)}`;
}
