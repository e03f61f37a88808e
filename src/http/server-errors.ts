// Errors raised below the routes: Node's HTTP parser (malformed requests, oversized headers, timeouts,
// methods it does not know), Fastify's router (malformed percent-encoding, over-long path parameters)
// and CONNECT. Each gets a body from the error catalog and the headers every response carries; none
// echoes the request, so nothing of its URL (or a key in it) comes back or reaches a log.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiError, errors } from '../errors.ts';

export const COMMON_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'x-content-type-options': 'nosniff',
  'access-control-allow-origin': '*',
} as const;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
};

/** A complete HTTP/1.1 response for a raw socket, closing the connection. */
export function rawResponse(err: ApiError): string {
  const body = JSON.stringify(err.body);
  const headers = {
    ...COMMON_HEADERS,
    ...err.headers,
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}`);
  return `HTTP/1.1 ${err.status} ${REASONS[err.status] ?? 'Error'}\r\n${lines.join('\r\n')}\r\n\r\n${body}`;
}

/** The catalog error for one of Node's HTTP parser errors. */
export function clientErrorOf(code: string | undefined): ApiError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.requestTimeout();
    case 'HPE_HEADER_OVERFLOW':
      return errors.headersTooLarge();
    case 'HPE_INVALID_METHOD':
      // Only GET exists; a method the parser does not even know is "any other method".
      return errors.methodNotAllowed();
    default:
      return errors.badRequest();
  }
}

/** Fastify's `clientErrorHandler`: answers a request Node could not parse, then closes the socket. */
export function onClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) socket.end(rawResponse(clientErrorOf(err.code)));
  socket.destroySoon();
}

/** Fastify's `frameworkErrors`: errors of the router, before hooks and handlers run. */
export function onFrameworkError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const known = err.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.uriTooLong() : errors.badRequest();
  void reply
    .code(known.status)
    .headers({ ...COMMON_HEADERS, ...known.headers })
    .send(JSON.stringify(known.body));
}

/** CONNECT never reaches the router: Node hands over the socket. Answer it instead of dropping it. */
export function answerConnect(server: Server): void {
  server.on('connect', (_req, socket: Socket) => {
    socket.on('error', () => {});
    if (socket.writable) socket.end(rawResponse(errors.methodNotAllowed()));
    socket.destroySoon();
  });
}
