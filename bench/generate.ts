// Generator throughput: postings per second (serialised to JSON, not written) and peak heap.
//   npx tsx bench/generate.ts [jobs=100000] [seed=1]
import { DemoDataset } from '../src/demo/generate.ts';

const jobs = Number(process.argv[2] ?? 100_000);
const seed = Number(process.argv[3] ?? 1);
const ds = new DemoDataset({ jobs, seed, rounds: 1, now: new Date('2025-06-01T12:00:00Z') });

let postings = 0;
let bytes = 0;
let peakHeap = 0;
const started = performance.now();
for (const line of ds.base()) {
  bytes += JSON.stringify(line).length + 1;
  if (line.kind !== 'posting') continue;
  if (++postings % 10_000 === 0) peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}
const baseSeconds = (performance.now() - started) / 1000;
let roundLines = 0;
const roundStarted = performance.now();
for (const line of ds.round(1)) {
  JSON.stringify(line);
  roundLines++;
}
const roundSeconds = (performance.now() - roundStarted) / 1000;

const mb = (n: number) => Math.round(n / 1e6);
console.log(
  JSON.stringify(
    {
      jobs,
      companies: ds.companyTotal,
      base_seconds: Math.round(baseSeconds * 10) / 10,
      postings_per_s: Math.round(postings / baseSeconds),
      base_mb: mb(bytes),
      round_lines: roundLines,
      round_seconds: Math.round(roundSeconds * 10) / 10,
      peak_heap_mb: mb(peakHeap),
    },
    null,
    2,
  ),
);
