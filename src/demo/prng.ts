// A small seeded PRNG (mulberry32) plus sampling helpers. Every generated item draws from its own stream,
// seeded from (seed, kind, index), so any item can be regenerated alone: that is what keeps the generator's
// memory constant and lets the rounds recompute a posting instead of remembering it.

/** 32-bit mix of several integers (a murmur3-style finaliser over a running hash). */
export function hash32(...parts: number[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    h = Math.imul(h ^ (p >>> 0), 0x01000193);
    h ^= h >>> 15;
    h = Math.imul(h, 0x2c1b3c6d);
    h ^= h >>> 12;
    h = Math.imul(h, 0x297a2d39);
    h ^= h >>> 15;
  }
  return h >>> 0;
}

/** Uniform [0,1) from a hash of the parts, for one-off decisions that need no stream. */
export function unit(...parts: number[]): number {
  return hash32(...parts) / 4294967296;
}

export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  static of(...parts: number[]): Rng {
    return new Rng(hash32(...parts));
  }
  /** [0,1) */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  u32(): number {
    return Math.floor(this.next() * 4294967296) >>> 0;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }
  /** k distinct items (k clipped to the list length), in random order. */
  sample<T>(items: readonly T[], k: number): T[] {
    const a = items.slice();
    const n = Math.min(k, a.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (a.length - i));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a.slice(0, n);
  }
  /** Standard normal (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
  /** Log-normal with the given median and spread (sigma of the log). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
  hex(n: number): string {
    let s = '';
    while (s.length < n) s += this.u32().toString(16).padStart(8, '0');
    return s.slice(0, n);
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${'89ab'[this.int(0, 3)]}${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** Weighted choice over a fixed table: cumulative weights, binary search. */
export class Weighted<T> {
  private readonly cum: Float64Array;
  readonly items: readonly T[];
  constructor(items: readonly T[], weights: readonly number[]) {
    this.items = items;
    this.cum = new Float64Array(items.length);
    let acc = 0;
    for (let i = 0; i < items.length; i++) {
      acc += weights[i];
      this.cum[i] = acc;
    }
  }
  static from<T>(pairs: readonly (readonly [T, number])[]): Weighted<T> {
    return new Weighted(
      pairs.map((p) => p[0]),
      pairs.map((p) => p[1]),
    );
  }
  index(r: number): number {
    const x = r * this.cum[this.cum.length - 1];
    let lo = 0;
    let hi = this.cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cum[mid] > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  pick(rng: Rng): T {
    return this.items[this.index(rng.next())];
  }
}

/** Bijective scramble of a 32-bit integer (so sequential indexes give unique, non-sequential ids). */
export function scramble32(x: number, key: number): number {
  let v = (x ^ key) >>> 0;
  v = Math.imul(v, 0x9e3779b1) >>> 0;
  v ^= v >>> 16;
  v = Math.imul(v, 0x85ebca6b) >>> 0;
  v ^= v >>> 13;
  return v >>> 0;
}
