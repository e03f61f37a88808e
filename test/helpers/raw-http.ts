// Raw HTTP/1.1 over a socket: what a hostile client sends, and the response as the server wrote it.
import net from 'node:net';

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  raw: string;
}

export function parseRaw(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  const head = end >= 0 ? raw.slice(0, end) : raw;
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(':');
    if (i > 0) headers[l.slice(0, i).trim().toLowerCase()] = l.slice(i + 1).trim();
  }
  return {
    status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0),
    headers,
    body: end >= 0 ? raw.slice(end + 4) : '',
    raw,
  };
}

/** Sends `request` as is and reads until the server closes or `timeoutMs` passes. */
export function rawRequest(port: number, request: string | Buffer, timeoutMs = 5000): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parseRaw(Buffer.concat(chunks).toString('latin1')));
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (c) => {
      chunks.push(c);
      // One complete response with a content-length is enough.
      const r = parseRaw(Buffer.concat(chunks).toString('latin1'));
      const len = Number(r.headers['content-length'] ?? -1);
      if (len >= 0 && Buffer.byteLength(r.body, 'latin1') >= len) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (e) => (chunks.length ? done() : reject(e)));
    socket.write(request);
  });
}

export const get = (path: string, headers: Record<string, string> = {}) =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')}Connection: close\r\n\r\n`;
