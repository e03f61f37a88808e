// What the match index's warm-up (MatchIndex.warm, run by the service at start) costs on a saved index:
// each step's time and the RSS after it, a full collection after each. No database needed.
//   node --expose-gc --import tsx bench/warm.ts DATA_DIR/match-index.bin
// NAMES=a,b: the facets of only these dimensions (default: every facet the index keeps, as warm does).
import { readFileSync } from 'node:fs';
import { INDEXED_FACETS } from '../src/search/dimensions.ts';
import { readIndex } from '../src/search/match-index.ts';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node --expose-gc --import tsx bench/warm.ts MATCH_INDEX_FILE\n');
  process.exit(2);
}
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
const rss = () => {
  gc();
  return (process.memoryUsage().rss / 2 ** 20).toFixed(0);
};
const index = readIndex(readFileSync(file));
const names = process.env.NAMES ? process.env.NAMES.split(',') : [...INDEXED_FACETS];
process.stdout.write(`read: rss ${rss()} MB\n`);
const step = (label: string, run: () => void) => {
  const t = performance.now();
  run();
  process.stdout.write(`${label}: ${(performance.now() - t).toFixed(0)} ms, rss ${rss()} MB\n`);
};
step('facets of every live row', () => index.facets(undefined, names, 1));
step('facets of every group', () => index.facets(undefined, names, 1, true));
// What warm() adds after these: the sorted salary bounds (and, with NAMES, the other facets).
step('the rest of warm()', () => index.warm());
