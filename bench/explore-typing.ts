// Typing to results on /explore, as the browser's performance timeline records it: Debian's Chromium opens
// the page of a running service, and for each of N words of the index's titles selects the search box's
// text and types the word at a typist's pace (80 ms a key); the page marks each key and measures "explore:
// typed to results" when the results of the query typed are on screen (its debounce included). The time
// of the /v1/jobs request itself is read from the resource timing entries.
//   npx tsx bench/explore-typing.ts http://127.0.0.1:PORT KEY [WORDS]
import puppeteer from 'puppeteer-core';
import { CHROMIUM } from '../test/helpers/browser.ts';

const [base, key, count = '40'] = process.argv.slice(2);
if (!base || !key) {
  process.stderr.write('usage: npx tsx bench/explore-typing.ts BASE_URL KEY [WORDS]\n');
  process.exit(2);
}

const auth = { authorization: `Bearer ${key}` };
// Words of the newest titles, as a user would type them.
const titles = (await (await fetch(`${base}/v1/jobs?limit=100`, { headers: auth })).json()) as {
  data: { title: string }[];
};
const words = [
  ...new Set(
    titles.data.flatMap((j) =>
      j.title
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length >= 4),
    ),
  ),
].slice(0, Number(count));

const browser = await puppeteer.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
try {
  const page = await browser.newPage();
  await page.goto(`${base}/explore`);
  await page.evaluate((k) => sessionStorage.setItem('jps-explore-key', k), key);
  await page.goto(`${base}/explore`);
  await page.waitForSelector('body[data-shown]', { timeout: 60_000 });
  const typed: number[] = [];
  const request: number[] = [];
  for (const word of words) {
    await page.evaluate(() => {
      performance.clearMeasures();
      performance.clearResourceTimings();
    });
    await page.click('#q', { clickCount: 3 });
    await page.type('#q', word, { delay: 80 });
    await page.waitForFunction(
      (w) => new URLSearchParams(document.body.dataset.shown ?? '').get('title') === w,
      { timeout: 60_000 },
      word,
    );
    const [t, r] = await page.evaluate(() => [
      performance.getEntriesByName('explore: typed to results').at(-1)?.duration,
      performance
        .getEntriesByType('resource')
        .filter((e) => new URL(e.name).pathname === '/v1/jobs')
        .at(-1)?.duration,
    ]);
    if (t !== undefined) typed.push(t);
    if (r !== undefined) request.push(r);
  }
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN);
  };
  const live = (await (await fetch(`${base}/v1/jobs/count`, { headers: auth })).json()) as { count: number };
  process.stdout.write(
    `${JSON.stringify({
      live: live.count,
      words: words.length,
      typed_to_results_ms: { p50: pct(typed, 0.5), p90: pct(typed, 0.9), max: pct(typed, 1) },
      jobs_request_ms: { p50: pct(request, 0.5), p90: pct(request, 0.9), max: pct(request, 1) },
    })}\n`,
  );
} finally {
  await browser.close();
}
