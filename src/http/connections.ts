// Bounds what slow or hostile clients can hold: connections per client address, and memory held by
// responses nobody reads. A response whose socket makes no write progress for `stallMs` is dropped, and
// stalled sockets are dropped at once (largest first) when their buffered bytes exceed `maxBufferedBytes`.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { errors } from '../errors.ts';
import { rawResponse } from './server-errors.ts';

export interface ConnectionLimits {
  /** Open connections per client address and process. */
  perAddress: number;
  /** A response stalled this long (no byte accepted by the client) is dropped. */
  stallMs: number;
  /** Bytes waiting in stalled sockets beyond which they are dropped without waiting. */
  maxBufferedBytes: number;
  /** How often sockets are checked. */
  sweepMs?: number;
}

interface Tracked {
  address: string;
  /** Bytes still queued in the process, and of those still in libuv's queue, at the last sweep. */
  queued: number;
  unsent: number;
  stalledSince: number | undefined;
}

// A large response is one write: `bytesWritten` counts it at once and `writableLength` holds it until
// it completes, so progress is read from libuv's own queue, which shrinks as the kernel accepts bytes.
const unsentOf = (socket: Socket) =>
  (socket as unknown as { _handle?: { writeQueueSize?: number } })._handle?.writeQueueSize ?? 0;

export interface ConnectionGuard {
  /** Sockets dropped so far: refused over the per-address cap, and dropped while stalled. */
  stats: { refused: number; dropped: number };
  stop(): void;
}

export function guardConnections(server: Server, limits: ConnectionLimits): ConnectionGuard {
  const sockets = new Map<Socket, Tracked>();
  const perAddress = new Map<string, number>();
  const stats = { refused: 0, dropped: 0 };

  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '?';
    const n = (perAddress.get(address) ?? 0) + 1;
    if (n > limits.perAddress) {
      stats.refused++;
      socket.on('error', () => {});
      socket.end(
        rawResponse(errors.unavailable('too many open connections from this address; retry later', 1)),
      );
      socket.destroySoon();
      return;
    }
    perAddress.set(address, n);
    sockets.set(socket, { address, queued: 0, unsent: 0, stalledSince: undefined });
    socket.once('close', () => {
      sockets.delete(socket);
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left <= 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });

  const sweep = () => {
    const now = Date.now();
    const stalled: [Socket, number][] = [];
    let buffered = 0;
    for (const [socket, t] of sockets) {
      const pending = socket.writableLength;
      const unsent = unsentOf(socket);
      const progressed = pending < t.queued || unsent < t.unsent;
      t.queued = pending;
      t.unsent = unsent;
      if (pending === 0 || progressed) {
        t.stalledSince = undefined;
        continue;
      }
      t.stalledSince ??= now;
      if (now - t.stalledSince >= limits.stallMs) {
        stats.dropped++;
        socket.destroy();
        continue;
      }
      stalled.push([socket, pending]);
      buffered += pending;
    }
    if (buffered <= limits.maxBufferedBytes) return;
    stalled.sort((a, b) => b[1] - a[1]);
    for (const [socket, pending] of stalled) {
      if (buffered <= limits.maxBufferedBytes) break;
      stats.dropped++;
      socket.destroy();
      buffered -= pending;
    }
  };
  const timer = setInterval(sweep, limits.sweepMs ?? 500);
  timer.unref();
  return { stats, stop: () => clearInterval(timer) };
}
