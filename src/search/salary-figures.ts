// The salary distribution's figures over one currency's values, as PostgreSQL computes them: the
// percentiles are percentile_cont's (the values at floor and ceil of p × (n − 1), interpolated as
// lo + (hi − lo) × fraction), a value's bucket is width_bucket's (the number of edges at or below it).
// The match index answers the distribution with these; PostgreSQL's own answer is the reference the
// tests compare them with.

export interface HistogramBucket {
  from: number;
  /** Null for the open last bucket of edges given by the client. */
  to: number | null;
  count: number;
}

export interface CurrencySalary {
  currency: string;
  count: number;
  min: number;
  p10: number;
  p25: number;
  median: number;
  p75: number;
  p90: number;
  max: number;
  histogram: HistogramBucket[];
}

export const PERCENTILES = [0.1, 0.25, 0.5, 0.75, 0.9] as const;

/** percentile_cont(p) over ascending `sorted` (at least one value). */
export function percentileCont(sorted: Float64Array, p: number): number {
  const at = p * (sorted.length - 1);
  const first = Math.floor(at);
  const second = Math.ceil(at);
  if (first === second) return sorted[first];
  const lo = sorted[first];
  return lo + (at - first) * (sorted[second] - lo);
}

/** width_bucket(v, edges): 0 below the first edge, i for edges[i-1] <= v < edges[i]. */
export function widthBucket(v: number, edges: readonly number[]): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid] <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The bucket edges of a currency: the client's (from 0, the open last bucket past the last edge) or about
 * ten round ones over the currency's range (niceEdges).
 */
export function bucketEdges(min: number, max: number, given?: number[]): number[] {
  return given ? [0, ...given.filter((e) => e > 0)] : niceEdges(min, max);
}

/** The histogram from the count of each width_bucket number (`counts(b)`). */
export function histogramOf(
  edges: number[],
  open: boolean,
  counts: (b: number) => number,
): HistogramBucket[] {
  const buckets: HistogramBucket[] = edges
    .slice(0, -1)
    .map((from, k) => ({ from, to: edges[k + 1], count: counts(k + 1) }));
  if (open) buckets.push({ from: edges[edges.length - 1], to: null, count: counts(edges.length) });
  return buckets;
}

/** Every figure of one currency from its values (ascending, finite, at least one). */
export function currencyFigures(currency: string, sorted: Float64Array, given?: number[]): CurrencySalary {
  const min = sorted[0];
  const max = sorted[sorted.length - 1];
  const edges = bucketEdges(min, max, given);
  const n = new Map<number, number>();
  for (const v of sorted) {
    const b = widthBucket(v, edges);
    n.set(b, (n.get(b) ?? 0) + 1);
  }
  const [p10, p25, median, p75, p90] = PERCENTILES.map((p) => percentileCont(sorted, p));
  return {
    currency,
    count: sorted.length,
    min,
    p10,
    p25,
    median,
    p75,
    p90,
    max,
    histogram: histogramOf(edges, given !== undefined, (b) => n.get(b) ?? 0),
  };
}

/** Currencies with most values first, ties by code. */
export function byCount(
  a: Pick<CurrencySalary, 'currency' | 'count'>,
  b: Pick<CurrencySalary, 'currency' | 'count'>,
): number {
  return b.count - a.count || (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0);
}

/**
 * About ten buckets of a round width (1, 2, 2.5 or 5 times a power of ten) from a multiple of that width
 * at or below `min` to the first edge past `max`, so every value lies in a bucket [from, to).
 */
export function niceEdges(min: number, max: number, target = 10): number[] {
  const span = max - min || Math.abs(max) || 1;
  const rough = span / target;
  const mag = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= rough)!;
  const first = Math.floor(min / step);
  const edges: number[] = [];
  for (let k = first; edges.length === 0 || edges[edges.length - 1] <= max; k++) edges.push(k * step);
  return edges;
}
