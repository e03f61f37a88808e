// A local HTTP server for crawler tests: routes are swapped between rounds, requests are logged.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface Route {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answered with 304 when the request's If-None-Match matches. */
  etag?: string;
  lastModified?: string;
  /** Delay before answering, ms. */
  delay?: number;
}

export type Handler = Route | ((req: http.IncomingMessage, body: string) => Route);

export interface Logged {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface TestServer {
  root: string;
  routes: Map<string, Handler>;
  log: Logged[];
  set(method: string, url: string, h: Handler): void;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Handler>();
  const log: Logged[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      log.push({ method: req.method!, url: req.url!, headers: req.headers, body, at: Date.now() });
      const h = routes.get(`${req.method} ${req.url}`);
      const route: Route = !h
        ? { status: 404, body: 'not found' }
        : typeof h === 'function'
          ? h(req, body)
          : h;
      const answer = () => {
        const headers: Record<string, string> = { ...(route.headers ?? {}) };
        if (route.etag) headers.etag = route.etag;
        if (route.lastModified) headers['last-modified'] = route.lastModified;
        const inm = req.headers['if-none-match'];
        const ims = req.headers['if-modified-since'];
        if (
          (route.etag && inm === route.etag) ||
          (!route.etag && route.lastModified && ims === route.lastModified)
        ) {
          res.writeHead(304, headers);
          res.end();
          return;
        }
        res.writeHead(route.status ?? 200, headers);
        res.end(route.body ?? '');
      };
      if (route.delay) setTimeout(answer, route.delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    root: `http://127.0.0.1:${port}`,
    routes,
    log,
    set(method, url, h) {
      routes.set(`${method} ${url}`, h);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/sources');

export function fixture(rel: string): string {
  return fs.readFileSync(path.join(FIXTURES, rel), 'utf8');
}

/** Fast, deterministic HTTP timing for tests: waits are recorded, not slept. */
export function fastHttp(waits: number[] = []) {
  return {
    retries: 2,
    backoffMs: 10,
    maxBackoffMs: 100,
    maxRetryAfterMs: 5000,
    minHostDelayMs: 0,
    timeoutMs: 2000,
    random: () => 1,
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}
