// The bound on expensive work (what counts as expensive: ./expensive.ts). At most `perProcess` expensive
// requests run at once in each process and at most `perKey` of one account (all its keys) on the whole
// host, so one key's heavy queries cannot take the database's cores and everyone's latency with them. A
// request without a slot waits its turn, at most `waitMs`: a free slot goes to the waiting account
// running fewest, accounts take turns among equals (round-robin), and each account's requests go in
// arrival order. Past `queuePerKey` waiting requests of its account the answer is 429 at once; past the
// wait, 429 when its own account's share held it, else 503; both with Retry-After.
//
// With HTTP workers the primary holds the one gate (`hostExpensiveGate`) and each worker asks it over the
// cluster's IPC channel (`remoteExpensiveGate`): a bound per process cannot hold an account below one
// request per worker, and each of those can keep a core busy for the whole statement timeout.
import cluster, { type Worker } from 'node:cluster';
import { ApiError, errors } from '../errors.ts';

export interface ExpensiveLimits {
  perProcess: number;
  perKey: number;
  /** Requests one account may have waiting for a slot (0: none wait). */
  queuePerKey: number;
  /** How long a request may wait for its slot. */
  waitMs: number;
  /** The expensive kinds, as the refusals name them. */
  kinds: string;
}

/** A slot for expensive work: resolves to the function that gives it back, or rejects with a 429/503. */
export interface SlotGate {
  enter(account: number): Promise<() => void>;
  /** Requests running and waiting now, in this process (for tests and metrics). */
  readonly stats: { running: number; waiting: number };
}

interface Waiter {
  account: number;
  proc: number;
  grant: (release: () => void) => void;
  refuse: (err: Error) => void;
  timer: NodeJS.Timeout;
}

const count = (m: Map<number, number>, k: number) => m.get(k) ?? 0;
const add = (m: Map<number, number>, k: number, d: number) => {
  const n = count(m, k) + d;
  if (n > 0) m.set(k, n);
  else m.delete(k);
};

export class ExpensiveGate implements SlotGate {
  private runningIn = new Map<number, number>();
  private runningBy = new Map<number, number>();
  /** Waiting requests per account, oldest first; the map's order is the accounts' turn. */
  private waiting = new Map<number, Waiter[]>();

  constructor(private limits: ExpensiveLimits) {}

  get stats(): { running: number; waiting: number } {
    let running = 0;
    let waiting = 0;
    for (const n of this.runningIn.values()) running += n;
    for (const q of this.waiting.values()) waiting += q.length;
    return { running, waiting };
  }

  /**
   * A slot for the account in process `proc` (0 in a lone process), now or after its turn; rejects with
   * the 429/503 when its account has too many waiting or the wait ran out.
   */
  enter(account: number, proc = 0): Promise<() => void> {
    if (!this.waiting.has(account) && this.mayRun(account, proc))
      return Promise.resolve(this.take(account, proc));
    const queue = this.waiting.get(account) ?? [];
    const { perKey, queuePerKey, kinds } = this.limits;
    if (queue.length >= queuePerKey) {
      return Promise.reject(
        errors.busy(
          `at most ${perKey} expensive requests (${kinds}) run at once per account, and ${queuePerKey} wait; retry after 1 s`,
        ),
      );
    }
    return new Promise((grant, refuse) => {
      const waiter: Waiter = {
        account,
        proc,
        grant,
        refuse,
        timer: setTimeout(() => this.expire(waiter), this.limits.waitMs),
      };
      queue.push(waiter);
      this.waiting.set(account, queue);
    });
  }

  /** Drops the waiting requests of a process that has gone (its running ones are given back by it). */
  forget(proc: number): void {
    for (const [account, queue] of this.waiting) {
      const kept = queue.filter((w) => w.proc !== proc || void clearTimeout(w.timer));
      if (kept.length) this.waiting.set(account, kept);
      else this.waiting.delete(account);
    }
    this.dispatch();
  }

  private mayRun(account: number, proc: number): boolean {
    return (
      count(this.runningIn, proc) < this.limits.perProcess &&
      count(this.runningBy, account) < this.limits.perKey
    );
  }

  private take(account: number, proc: number): () => void {
    add(this.runningIn, proc, 1);
    add(this.runningBy, account, 1);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      add(this.runningIn, proc, -1);
      add(this.runningBy, account, -1);
      this.dispatch();
    };
  }

  /**
   * Gives free slots to waiting requests: to the account running fewest whose oldest request may run in
   * its process, and among equals to the one whose turn it is; an account served goes to the back.
   */
  private dispatch(): void {
    for (;;) {
      let chosen: number | undefined;
      for (const [account, queue] of this.waiting) {
        if (!this.mayRun(account, queue[0].proc)) continue;
        if (chosen === undefined || count(this.runningBy, account) < count(this.runningBy, chosen))
          chosen = account;
      }
      if (chosen === undefined) return;
      const queue = this.waiting.get(chosen)!;
      const next = queue.shift()!;
      this.waiting.delete(chosen);
      if (queue.length) this.waiting.set(chosen, queue);
      clearTimeout(next.timer);
      next.grant(this.take(chosen, next.proc));
    }
  }

  private expire(waiter: Waiter): void {
    const queue = this.waiting.get(waiter.account);
    const at = queue?.indexOf(waiter) ?? -1;
    if (!queue || at < 0) return;
    queue.splice(at, 1);
    if (!queue.length) this.waiting.delete(waiter.account);
    const { perKey, waitMs, kinds } = this.limits;
    const seconds = (waitMs / 1000).toFixed(1);
    waiter.refuse(
      count(this.runningBy, waiter.account) >= perKey
        ? errors.busy(
            `this account's ${perKey} expensive requests at once (${kinds}) kept this one waiting ${seconds} s; retry after 1 s`,
          )
        : errors.unavailable(
            `too many expensive requests in progress: waited ${seconds} s; retry after 1 s`,
            1,
          ),
    );
  }
}

type GateMessage =
  | { type: 'gate-enter'; seq: number; account: number }
  | { type: 'gate-leave'; seq: number }
  | { type: 'gate-grant'; seq: number }
  | {
      type: 'gate-refuse';
      seq: number;
      status: number;
      body: Record<string, unknown>;
      headers: Record<string, string>;
    };

/** What the primary hears from its workers: node:cluster itself (a test's primary gives its own). */
export interface WorkerEvents {
  on(event: 'message', fn: (w: Worker, m: unknown) => void): unknown;
  on(event: 'exit', fn: (w: Worker) => void): unknown;
  off(event: 'message', fn: (w: Worker, m: unknown) => void): unknown;
  off(event: 'exit', fn: (w: Worker) => void): unknown;
}

/**
 * The primary's gate for its workers: each worker's requests are of its process; the slots a worker held
 * when it died are given back. Returns the function that stops listening.
 */
export function hostExpensiveGate(limits: ExpensiveLimits, workers: WorkerEvents = cluster): () => void {
  const gate = new ExpensiveGate(limits);
  /** The slots each worker holds, by its request's number. */
  const held = new Map<number, Map<number, () => void>>();
  const send = (w: Worker, m: GateMessage, failed?: () => void) => {
    if (!w.isConnected()) return failed?.();
    w.send(m, undefined, (err) => err && failed?.());
  };
  const onMessage = (w: Worker, raw: unknown) => {
    const m = raw as GateMessage;
    if (m?.type === 'gate-leave') {
      held.get(w.id)?.get(m.seq)?.();
      held.get(w.id)?.delete(m.seq);
    }
    if (m?.type !== 'gate-enter') return;
    gate.enter(m.account, w.id).then(
      (release) => {
        const mine = held.get(w.id) ?? new Map<number, () => void>();
        held.set(w.id, mine);
        mine.set(m.seq, release);
        send(w, { type: 'gate-grant', seq: m.seq }, () => {
          mine.delete(m.seq);
          release();
        });
      },
      (err: ApiError) =>
        send(w, {
          type: 'gate-refuse',
          seq: m.seq,
          status: err.status,
          body: err.body,
          headers: err.headers,
        }),
    );
  };
  const onExit = (w: Worker) => {
    for (const release of held.get(w.id)?.values() ?? []) release();
    held.delete(w.id);
    gate.forget(w.id);
  };
  workers.on('message', onMessage);
  workers.on('exit', onExit);
  return () => {
    workers.off('message', onMessage);
    workers.off('exit', onExit);
  };
}

/** How long past its own wait a worker waits for the primary's answer before giving up with a 503. */
const GIVE_UP_MS = 2000;

/** A worker's gate: the primary's (`hostExpensiveGate`), asked over IPC. */
export function remoteExpensiveGate(waitMs: number): SlotGate {
  let seq = 0;
  let running = 0;
  const pending = new Map<
    number,
    { grant: (r: () => void) => void; refuse: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  const send = (m: GateMessage) => process.send?.(m, undefined, undefined, () => {});
  process.on('message', (raw: unknown) => {
    const m = raw as GateMessage;
    if (m?.type !== 'gate-grant' && m?.type !== 'gate-refuse') return;
    const waiter = pending.get(m.seq);
    pending.delete(m.seq);
    if (waiter) clearTimeout(waiter.timer);
    if (m.type === 'gate-refuse') return waiter?.refuse(new ApiError(m.status, m.body, m.headers));
    // Granted after this worker gave up waiting: given back at once.
    if (!waiter) return send({ type: 'gate-leave', seq: m.seq });
    running++;
    let done = false;
    waiter.grant(() => {
      if (done) return;
      done = true;
      running--;
      send({ type: 'gate-leave', seq: m.seq });
    });
  });
  return {
    get stats() {
      return { running, waiting: pending.size };
    },
    enter(account: number) {
      const id = ++seq;
      return new Promise((grant, refuse) => {
        const giveUp = (hint: string) => {
          clearTimeout(timer);
          if (pending.delete(id)) refuse(errors.unavailable(`${hint}; retry after 1 s`, 1));
        };
        const timer = setTimeout(
          () => giveUp('the expensive-work gate did not answer in time'),
          waitMs + GIVE_UP_MS,
        );
        pending.set(id, { grant, refuse, timer });
        const message: GateMessage = { type: 'gate-enter', seq: id, account };
        process.send?.(
          message,
          undefined,
          undefined,
          (err) => err && giveUp('the expensive-work gate cannot be reached'),
        );
      });
    },
  };
}
