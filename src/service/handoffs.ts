// Connections handed to a worker that died before taking them. With node:cluster's round-robin
// scheduler the primary accepts each connection and sends its handle to a worker, keeping its own copy
// until the worker acknowledges it. A worker killed before it reads that message never acknowledges:
// the primary then held the connection open forever, unanswered and never reset, until the client gave
// up (one of 40 requests sent right after a SIGKILL, in 2 of 3 rounds). Here the handles sent to a
// worker and not yet acknowledged are kept, and closed when the worker disconnects or exits, so that
// their clients see the connection end at once and retry. This reads the cluster's own messages
// (`{cmd: 'NODE_CLUSTER', act: 'newconn', seq}` out with the handle, `{ack: seq}` back), the same from
// Node 0.12 to 24; test/service/worker-death.test.ts checks it on every Node the CI runs.
import type { Worker } from 'node:cluster';

interface ClusterMessage {
  cmd?: unknown;
  act?: unknown;
  seq?: unknown;
  ack?: unknown;
}
interface Closable {
  close(): void;
}
type Send = (message: unknown, handle?: unknown, ...rest: unknown[]) => boolean;

const isCluster = (m: unknown): m is ClusterMessage =>
  typeof m === 'object' && m !== null && (m as ClusterMessage).cmd === 'NODE_CLUSTER';

/**
 * Watches the connections handed to `worker`. Returns how many of them were closed because it died (read
 * it in an 'exit' listener added after this call).
 */
export function closeUntakenOnDeath(worker: Worker): () => number {
  const proc = worker.process as unknown as { send: Send; on(e: string, l: (m: unknown) => void): void };
  const pending = new Map<unknown, Closable>();
  const send = proc.send.bind(proc);
  proc.send = (message, handle, ...rest) => {
    if (handle && isCluster(message) && message.act === 'newconn')
      pending.set(message.seq, handle as Closable);
    return send(message, handle, ...rest);
  };
  proc.on('internalMessage', (m) => {
    if (isCluster(m) && m.ack !== undefined) pending.delete(m.ack);
  });
  let closed = 0;
  const closeAll = () => {
    for (const handle of pending.values()) handle.close();
    closed += pending.size;
    pending.clear();
  };
  worker.once('disconnect', closeAll);
  worker.once('exit', closeAll);
  return () => closed;
}
