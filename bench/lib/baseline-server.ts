// The baseline: a bare node:http server that answers every request with the response recorded from the
// real service for the same request kind (status, content type and body bytes), from memory.
//   node --import tsx bench/lib/baseline-server.ts RESPONSES.json   (env PORT)
import { readFileSync } from 'node:fs';
import http from 'node:http';

interface Recorded {
  status: number;
  contentType: string;
  body: string;
}

const recorded = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, Recorded>;
const responses = new Map(
  Object.entries(recorded).map(([kind, r]) => {
    const body = Buffer.from(r.body, 'utf8');
    const headers = { 'content-type': r.contentType, 'content-length': String(body.length) };
    return [kind, { status: r.status, headers, body }];
  }),
);
const notFound = Buffer.from('{"error":"unknown kind"}');

const server = http.createServer((req, res) => {
  const kind = req.headers['x-bench-kind'];
  const r = typeof kind === 'string' ? responses.get(kind) : undefined;
  if (!r) {
    res.writeHead(req.url === '/ready' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(notFound);
    return;
  }
  res.writeHead(r.status, r.headers);
  res.end(r.body);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
