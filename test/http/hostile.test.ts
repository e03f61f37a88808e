// Hostile input at every level: NUL bytes in every parameter and path segment, stacked negations,
// every HTTP method, and the errors Node and the router raise before any route runs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINT_PATHS } from '../../robustness/hostile.ts';
import { endpointParams } from '../../src/http/params/registry.ts';
import { clientErrorOf, rawResponse } from '../../src/http/server-errors.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { get, type RawResponse, rawRequest } from '../helpers/raw-http.ts';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.fastify.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await t.close();
});

function expectContract(r: { headers: Record<string, unknown> }) {
  expect(r.headers['content-type']).toBe('application/json; charset=utf-8');
  expect(r.headers['x-content-type-options']).toBe('nosniff');
  expect(r.headers['access-control-allow-origin']).toBe('*');
}

describe('NUL bytes', () => {
  it('in any parameter of any endpoint: a 400 naming the parameter', async () => {
    let checked = 0;
    for (const [endpoint, defs] of Object.entries(endpointParams)) {
      for (const def of defs) {
        for (const value of ['a%00b', '%00', 'java%00,python']) {
          const r = await t.get(
            `${ENDPOINT_PATHS[endpoint as keyof typeof endpointParams]}?${def.name}=${value}`,
          );
          expect(r.statusCode, `${endpoint} ${def.name}=${value}`).toBe(400);
          expect(r.json()).toMatchObject({ error: 'invalid request', param: def.name });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(150);
    // In a parameter name: unknown parameter, named.
    const r = await t.get('/v1/jobs?ti%00tle=x');
    expect(r.statusCode).toBe(400);
    expect(r.json().param).toBe('ti\0tle');
  });

  it('in a path id or slug: 404 not found', async () => {
    for (const url of ['/v1/jobs/x%00y', '/v1/companies/x%00y', '/v1/jobs/feed%00', '/v1/jobs/%00']) {
      const r = await t.get(url);
      expect(r.statusCode, url).toBe(404);
      expect(r.json()).toEqual({ error: 'not found' });
      expectContract(r);
    }
  });
});

describe('stacked negations', () => {
  it.each(['title_advanced', 'description_advanced'])('%s with 17 to 200 ! is a 400', async (param) => {
    for (const n of [17, 33, 64, 200]) {
      const r = await t.get(`/v1/jobs?${param}=${'!'.repeat(n)}java`);
      expect(r.statusCode, `${n}`).toBe(400);
      expect(r.json()).toMatchObject({ param, hint: expect.stringMatching(/stacked/) });
    }
    expect((await t.get(`/v1/jobs?${param}=${'!'.repeat(16)}java`)).statusCode).toBe(200);
    expect(
      (await t.get(`/v1/jobs/count?${param}=${encodeURIComponent('!(!(!(!(java))))')}`)).statusCode,
    ).toBe(200);
  });
});

function request(
  method: string,
  path: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, headers: { connection: 'close' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('methods', () => {
  const others = http.METHODS.filter((m) => !['GET', 'OPTIONS', 'CONNECT'].includes(m));

  it('every method Node knows other than GET and OPTIONS is a 405 with Allow on every known path', async () => {
    for (const path of [
      '/v1/jobs',
      '/v1/jobs/greenhouse:1',
      '/v1/companies/acme',
      '/v1/health',
      '/openapi.json',
    ]) {
      for (const method of others) {
        const r = await request(method, path);
        expect(r.status, `${method} ${path}`).toBe(405);
        expect(r.headers.allow, method).toBe('GET, OPTIONS');
        expectContract(r);
        if (method !== 'HEAD') expect(JSON.parse(r.body)).toEqual({ error: 'method not allowed' });
      }
    }
  });

  it('a method Node does not know is a 405 too, answered by the parser error handler', async () => {
    for (const line of ['FOO /v1/jobs HTTP/1.1', 'GARBAGE', 'BREW /v1/jobs HTTP/1.1']) {
      const r = await rawRequest(port, `${line}\r\nHost: x\r\n\r\n`);
      expect(r.status, line).toBe(405);
      expect(r.headers.allow).toBe('GET, OPTIONS');
      expectContract(r);
    }
  });

  it('CONNECT is answered with a 405, not a dropped socket', async () => {
    const r = await rawRequest(port, 'CONNECT example.org:443 HTTP/1.1\r\nHost: example.org:443\r\n\r\n');
    expect(r.status).toBe(405);
    expectContract(r);
    expect(JSON.parse(r.body)).toEqual({ error: 'method not allowed' });
  });

  it('OPTIONS on an unknown path is the unknown-endpoint 404; on a known path the 204 preflight', async () => {
    const unknown = await request('OPTIONS', '/v1/nowhere');
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body)).toMatchObject({ error: 'unknown endpoint' });
    expect((await request('OPTIONS', '/v1/jobs')).status).toBe(204);
  });
});

describe('errors below the routes', () => {
  const key = () => t.key;
  const noEcho = (r: RawResponse) => {
    expect(r.body).not.toContain(key());
    expect(r.body).not.toMatch(/v1|FST_|%C3|statusCode|message/);
  };

  it('a malformed percent-encoding in the path (router error) is a catalog 400', async () => {
    const r = await rawRequest(port, get(`/v1/jobs/%C3%28?api_key=${key()}`));
    expect(r.status).toBe(400);
    expectContract(r);
    expect(JSON.parse(r.body)).toEqual({ error: 'bad request' });
    noEcho(r);
  });

  it('an over-long id (router error) is a catalog 414', async () => {
    const r = await rawRequest(port, get(`/v1/jobs/${'a'.repeat(3000)}?api_key=${key()}`));
    expect(r.status).toBe(414);
    expectContract(r);
    expect(JSON.parse(r.body)).toEqual({ error: 'uri too long' });
    noEcho(r);
  });

  it('oversized headers are a catalog 431', async () => {
    const r = await rawRequest(port, get(`/v1/jobs?api_key=${key()}`, { 'x-big': 'y'.repeat(20_000) }));
    expect(r.status).toBe(431);
    expectContract(r);
    expect(JSON.parse(r.body)).toEqual({ error: 'request header fields too large' });
  });

  it("Node's own 400s (malformed request lines, bad headers, smuggling shapes) are catalog 400s", async () => {
    for (const req of [
      'GET /v1/jobs HTTP/1.1 extra\r\n\r\n',
      'GET /v1/jobs HTTP/9.9\r\n\r\n',
      'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n',
      'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'GET /v1/jobs HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ]) {
      const r = await rawRequest(port, req);
      expect(r.status, JSON.stringify(req)).toBe(400);
      expectContract(r);
      expect(JSON.parse(r.body)).toEqual({ error: 'bad request' });
    }
  });

  it('two Host fields are a catalog 400, and the connection is closed (RFC 9112)', async () => {
    for (const hosts of ['Host: x\r\nHost: y', 'Host: x\r\nhost: x']) {
      const r = await rawRequest(port, `GET /v1/health HTTP/1.1\r\n${hosts}\r\n\r\n`);
      expect(r.status, hosts).toBe(400);
      expectContract(r);
      expect(JSON.parse(r.body)).toEqual({ error: 'bad request' });
      expect(r.headers.connection).toBe('close');
    }
    // One Host field is served as ever.
    const one = await rawRequest(port, 'GET /v1/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(one.status).toBe(200);
  });

  it("maps each of Node's parser errors to its catalog answer (408 is exercised live by npm run robustness)", () => {
    const cases: [string | undefined, number, string][] = [
      ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request timeout'],
      ['HPE_HEADER_OVERFLOW', 431, 'request header fields too large'],
      ['HPE_INVALID_METHOD', 405, 'method not allowed'],
      ['HPE_INVALID_HEADER_TOKEN', 400, 'bad request'],
      [undefined, 400, 'bad request'],
    ];
    for (const [code, status, error] of cases) {
      const text = rawResponse(clientErrorOf(code));
      expect(text.startsWith(`HTTP/1.1 ${status} `), String(code)).toBe(true);
      expect(text).toContain('content-type: application/json; charset=utf-8\r\n');
      expect(text).toContain('x-content-type-options: nosniff\r\n');
      expect(text).toContain('access-control-allow-origin: *\r\n');
      expect(text).toContain('connection: close\r\n');
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ error });
    }
  });

  it('a request whose headers never end gets a catalog 408, not a silently closed socket', async () => {
    const t0 = Date.now();
    const r = await rawRequest(port, 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\n', 20_000);
    expect(r.status).toBe(408);
    expectContract(r);
    expect(JSON.parse(r.body)).toEqual({ error: 'request timeout' });
    expect(Date.now() - t0).toBeLessThan(20_000);
  }, 30_000);

  it('the service keeps serving after all of them', async () => {
    const r = await rawRequest(port, get('/v1/jobs?limit=1', { authorization: `Bearer ${key()}` }));
    expect(r.status).toBe(200);
  });
});
