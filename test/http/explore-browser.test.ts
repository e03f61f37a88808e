// The explore page in a real browser, over the demo data: headless Chromium loads /explore from a
// listening service, takes the key in its form, searches as it is typed, and shows what the API answers
// for the same query (total, first ids); a facet click gives the total /v1/jobs/count gives for the
// filter it adds; a posting opens with its history; the URL alone brings the same state back. Keyboard
// use, a 375 px wide screen, the API's errors (a 400 naming its parameter, a 429 saying when to retry)
// and the key never leaving the Authorization header are part of it, and nothing is loaded from
// anywhere but the service. Skipped where Chromium is not installed (CI installs it); the page and its
// assets as served (headers, bytes, gzip) are checked without it.
import { mkdirSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, generateRound } from '../../src/demo/generate.ts';
import { EXPLORE_HEADERS } from '../../src/http/explore.ts';
import { ingestRecords } from '../../src/ingest/pipeline.ts';
import { MemoryLimiter } from '../../src/limiter/limiter.ts';
import { runRefresh } from '../../src/service/schedules.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/browser.ts';

if (!haveChromium) console.warn(`skipping the /explore browser test: no Chromium at ${CHROMIUM}`);

const SCREENSHOT = path.resolve('test-results/explore.png');
const SCREENSHOT_NARROW = path.resolve('test-results/explore-375.png');
const KEY_STORE = 'jps-explore-key';
const PAGE_SIZE = 20;

let t: TestApp;
let base: string;
let browser: Browser;
let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;

async function listen(app: TestApp): Promise<string> {
  await app.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.app.fastify.server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  if (!haveChromium) return;
  t = await createTestApp({ sample: false });
  // The demo dataset, with one round of changes after it so that postings have versions.
  const opts = { jobs: 1500, seed: 44, rounds: 1 };
  await ingestRecords(t.db, [...generateDataset(opts)]);
  await ingestRecords(t.db, [...generateRound(opts, 1)]);
  await runRefresh(t.db);
  base = await listen(t);
  chromium = await launchChromium();
  browser = chromium.browser;
}, 180_000);

afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

/** What the API answers, asked from here with the key. */
async function api<T>(app: TestApp, url: string): Promise<{ status: number; body: T }> {
  const res = await app.get(url);
  return { status: res.statusCode, body: res.json() as T };
}

interface Watched {
  page: Page;
  requests: { url: string; authorization?: string }[];
  errors: string[];
}

/** A new tab that records every request it makes and every script error; the key already in its storage. */
async function newPage(opts: { key?: string; width?: number } = {}): Promise<Watched> {
  const page = await browser.newPage();
  await page.setViewport({ width: opts.width ?? 1280, height: 900 });
  const requests: Watched['requests'] = [];
  const errors: string[] = [];
  page.on('request', (req) => requests.push({ url: req.url(), authorization: req.headers().authorization }));
  page.on('pageerror', (err) => errors.push(String(err)));
  if (opts.key) await page.evaluateOnNewDocument((k, v) => sessionStorage.setItem(k, v), KEY_STORE, opts.key);
  return { page, requests, errors };
}

/** Waits until the page shows the answers to these filters. */
async function shown(page: Page, filters: URLSearchParams): Promise<void> {
  await page.waitForFunction(
    (q) => document.body.dataset.shown === q,
    { timeout: 30_000 },
    filters.toString(),
  );
}

const filtersOfUrl = (url: string) => {
  const p = new URL(url).searchParams;
  p.delete('job');
  return p;
};

const shownIds = (page: Page) =>
  page.$$eval('#results .result', (els) => els.map((e) => e.getAttribute('data-id')));
const shownTotal = (page: Page) => page.$eval('#summary', (e) => Number(e.getAttribute('data-total')));

/** Only the service was asked, and the key went in the Authorization header of API requests only. */
function expectOnlyService(w: Watched, key: string): void {
  const elsewhere = w.requests.filter((r) => !r.url.startsWith(`${base}/`) && !r.url.startsWith('data:'));
  expect(elsewhere).toEqual([]);
  expect(w.requests.filter((r) => r.url.includes(key))).toEqual([]);
  const apiCalls = w.requests.filter((r) => r.url.startsWith(`${base}/v1/`));
  expect(apiCalls.length).toBeGreaterThan(0);
  for (const r of apiCalls) expect(r.authorization).toBe(`Bearer ${key}`);
  expect(w.errors).toEqual([]);
}

// Without a browser: the page and its assets, their headers, gzipped when asked.
describe('/explore as served', () => {
  let plain: TestApp;
  beforeAll(async () => {
    plain = await createTestApp();
  });
  afterAll(async () => plain?.close());

  it('serves the page and its assets with a strict policy, gzipped when asked', async () => {
    const assets = [
      ['/explore', 'text/html; charset=utf-8', 'index.html'],
      ['/explore/explore.js', 'text/javascript; charset=utf-8', 'explore.js'],
      ['/explore/explore.css', 'text/css; charset=utf-8', 'explore.css'],
    ];
    for (const [url, type, file] of assets) {
      const source = readFileSync(new URL(`../../src/http/explore/${file}`, import.meta.url), 'utf8');
      const res = await plain.app.fastify.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(type);
      for (const [name, value] of Object.entries(EXPLORE_HEADERS)) expect(res.headers[name]).toBe(value);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.body).toBe(source);
      const zipped = await plain.app.fastify.inject({ url, headers: { 'accept-encoding': 'gzip, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toBe('accept-encoding');
      expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(source);
    }
  });
});

describe.skipIf(!haveChromium)('/explore in headless Chromium', () => {
  it('searches as typed, filters by facet, opens a posting with its history, and reloads from its URL', async () => {
    const w = await newPage();
    const { page } = w;
    await page.goto(`${base}/explore`, { waitUntil: 'networkidle0' });

    // Asked for the key once; it goes into the tab's session storage, not the URL.
    await page.waitForSelector('#key-form:not([hidden])');
    await page.type('#key', t.key);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#key-form', { hidden: true });
    expect(await page.evaluate((k) => sessionStorage.getItem(k), KEY_STORE)).toBe(t.key);

    // Typed, then searched: the same total and first ids as the API for the same query.
    await page.type('#q', 'engineer');
    const typed = new URLSearchParams({ title: 'engineer' });
    await shown(page, typed);
    expect(new URL(page.url()).search).toBe('?title=engineer');
    const answer = await api<{ total: number; data: { id: string }[] }>(
      t,
      `/v1/jobs?title=engineer&limit=${PAGE_SIZE}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBeGreaterThan(PAGE_SIZE);
    expect(await shownTotal(page)).toBe(answer.body.total);
    expect(await shownIds(page)).toEqual(answer.body.data.map((j) => j.id));

    // "More" appends the next page of the cursor.
    await page.click('#more');
    await page.waitForFunction(
      (n) => document.querySelectorAll('#results .result').length > n,
      {},
      PAGE_SIZE,
    );
    const next = await api<{ data: { id: string }[] }>(
      t,
      `/v1/jobs?title=engineer&limit=${PAGE_SIZE}&cursor=${encodeURIComponent((answer.body as { next_cursor?: string }).next_cursor ?? '')}`,
    );
    expect((await shownIds(page)).slice(PAGE_SIZE)).toEqual(next.body.data.map((j) => j.id));

    // The charts are drawn.
    await page.waitForSelector('#salary svg rect.bar');
    await page.waitForSelector('#trends svg polyline.added');

    // A facet value adds its filter; the new total is what /v1/jobs/count answers for the page's URL.
    const facet = await page.waitForSelector('section[data-facet="country"] .facet-value');
    const [param, value, facetCount] = await facet!.evaluate((e) => [
      e.getAttribute('data-param')!,
      e.getAttribute('data-value')!,
      e.querySelector('.count')!.textContent!,
    ]);
    await facet!.click();
    const filtered = new URLSearchParams({ title: 'engineer', [param]: value });
    await shown(page, filtered);
    expect(filtersOfUrl(page.url()).toString()).toBe(filtered.toString());
    const count = await api<{ count: number }>(t, `/v1/jobs/count?${filtersOfUrl(page.url())}`);
    expect(count.status).toBe(200);
    expect(await shownTotal(page)).toBe(count.body.count);
    expect(Number(facetCount.replace(/,/g, ''))).toBe(count.body.count);
    expect(
      await page.$eval(`section[data-facet="country"] .facet-value[data-value="${value}"]`, (e) =>
        e.getAttribute('aria-pressed'),
      ),
    ).toBe('true');
    const filteredIds = await shownIds(page);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });

    // A posting opens with its description and its history, as /v1/jobs/{id}/history gives it: one of
    // those shown with a history to show (copies folded into it, or versions).
    interface History {
      versions: { modified_at: string }[];
      copies: { id: string }[];
    }
    let id: string | undefined;
    let history: History | undefined;
    for (const shownId of filteredIds) {
      const h = await api<History>(t, `/v1/jobs/${encodeURIComponent(shownId!)}/history`);
      expect(h.status).toBe(200);
      if (h.body.copies.length + h.body.versions.length > 0) {
        [id, history] = [shownId!, h.body];
        break;
      }
    }
    expect(id).toBeDefined();
    await page.click(`#results .result[data-id="${id}"] .title`);
    await page.waitForSelector('#job[open] #history');
    expect(new URL(page.url()).searchParams.get('job')).toBe(id);
    const seen = await page.$eval('#history', (e) => [
      e.getAttribute('data-versions'),
      e.getAttribute('data-copies'),
      [...e.querySelectorAll('.copies li')].map((li) => li.getAttribute('data-id')),
      e.querySelectorAll('.versions > li').length,
    ]);
    expect(seen).toEqual([
      String(history!.versions.length),
      String(history!.copies.length),
      history!.copies.map((c) => c.id),
      history!.versions.length,
    ]);
    const job = await api<{ title: string; description: string }>(
      t,
      `/v1/jobs/${encodeURIComponent(id!)}?description_format=text`,
    );
    expect(await page.$eval('#job-title', (e) => e.textContent)).toBe(job.body.title);
    expect(await page.$eval('#job .description', (e) => e.textContent)).toBe(job.body.description);

    // The URL alone brings the same state back.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await shown(page, filtered);
    expect(await page.$eval('#q', (e) => (e as HTMLInputElement).value)).toBe('engineer');
    expect(await shownTotal(page)).toBe(count.body.count);
    expect(await shownIds(page)).toEqual(filteredIds);
    await page.waitForSelector('#job[open] #history');
    expect(await page.$eval('#job-title', (e) => e.textContent)).toBe(job.body.title);

    expectOnlyService(w, t.key);
    await page.close();
  }, 120_000);

  it('is used with the keyboard: tab to the search box, enter on a facet', async () => {
    const w = await newPage({ key: t.key });
    const { page } = w;
    await page.goto(`${base}/explore`, { waitUntil: 'domcontentloaded' });
    await shown(page, new URLSearchParams());
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('q');
    await page.keyboard.type('nurse');
    await shown(page, new URLSearchParams({ title: 'nurse' }));

    let target: string[] | undefined;
    for (let i = 0; i < 40 && !target; i++) {
      await page.keyboard.press('Tab');
      target = await page.evaluate(() => {
        const e = document.activeElement;
        return e?.classList.contains('facet-value')
          ? [e.getAttribute('data-param')!, e.getAttribute('data-value')!]
          : undefined;
      });
    }
    expect(target).toBeDefined();
    await page.keyboard.press('Enter');
    const filters = new URLSearchParams({ title: 'nurse', [target![0]]: target![1] });
    await shown(page, filters);
    expect(filtersOfUrl(page.url()).toString()).toBe(filters.toString());
    const count = await api<{ count: number }>(t, `/v1/jobs/count?${filters}`);
    expect(await shownTotal(page)).toBe(count.body.count);
    // The focus stays on the value, now pressed, so Enter again takes the filter off.
    const focused = await page.evaluate(() => {
      const e = document.activeElement;
      return [e?.getAttribute('data-param'), e?.getAttribute('data-value'), e?.getAttribute('aria-pressed')];
    });
    expect(focused).toEqual([...target!, 'true']);
    await page.keyboard.press('Enter');
    await shown(page, new URLSearchParams({ title: 'nurse' }));
    expectOnlyService(w, t.key);
    await page.close();
  }, 60_000);

  it('searches titles and descriptions when asked to', async () => {
    const w = await newPage({ key: t.key });
    const { page } = w;
    await page.goto(`${base}/explore`, { waitUntil: 'domcontentloaded' });
    await shown(page, new URLSearchParams());
    await page.select('#field', 'description');
    await page.type('#q', 'kubernetes');
    const filters = new URLSearchParams({ description: 'kubernetes' });
    await shown(page, filters);
    const answer = await api<{ total: number; data: { id: string }[] }>(
      t,
      `/v1/jobs?${filters}&limit=${PAGE_SIZE}`,
    );
    expect(answer.body.total).toBeGreaterThan(0);
    expect(await shownTotal(page)).toBe(answer.body.total);
    expect(await shownIds(page)).toEqual(answer.body.data.map((j) => j.id));
    expect(await page.$eval('#error', (e) => (e as HTMLElement).hidden)).toBe(true);
    expectOnlyService(w, t.key);
    await page.close();
  }, 60_000);

  it('fits a 375 px wide screen', async () => {
    const w = await newPage({ key: t.key, width: 375 });
    const { page } = w;
    const filters = new URLSearchParams({ title: 'engineer', remote: 'true' });
    await page.goto(`${base}/explore?${filters}`, { waitUntil: 'domcontentloaded' });
    await shown(page, filters);
    await page.waitForSelector('#trends svg');
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
    expect(widths).toEqual([375, 375]);
    // The filters are folded away; the results are on screen.
    expect(await page.$eval('#facets-box', (e) => (e as HTMLDetailsElement).open)).toBe(false);
    const first = await page.$eval('#results .result', (e) => e.getBoundingClientRect().right);
    expect(first).toBeLessThanOrEqual(375);
    mkdirSync(path.dirname(SCREENSHOT_NARROW), { recursive: true });
    await page.screenshot({ path: SCREENSHOT_NARROW, fullPage: true });
    expectOnlyService(w, t.key);
    await page.close();
  }, 60_000);

  it("shows the API's own message: a 400 names its parameter", async () => {
    const w = await newPage({ key: t.key });
    const { page } = w;
    await page.goto(`${base}/explore?seniority=Senior`, { waitUntil: 'domcontentloaded' });
    await shown(page, new URLSearchParams({ seniority: 'Senior' }));
    const answer = await api<{ error: string; param: string; hint: string }>(t, '/v1/jobs?seniority=Senior');
    expect(answer.status).toBe(400);
    expect(answer.body.param).toBe('seniority');
    const text = await page.$eval('#error', (e) => e.textContent ?? '');
    expect(text).toContain(`400 ${answer.body.error} — parameter seniority: ${answer.body.hint}`);
    expect(await page.$$('#results .result')).toEqual([]);
    await page.close();
  }, 60_000);
});

describe.skipIf(!haveChromium)('/explore over a key at its rate limit', () => {
  let small: TestApp;
  let smallBase: string;
  beforeAll(async () => {
    small = await createTestApp({ limiter: new MemoryLimiter(), env: { RATE_LIMIT_PER_MINUTE: '5' } });
    smallBase = await listen(small);
  });
  afterAll(async () => small?.close());

  it('says when to retry after a 429', async () => {
    const w = await newPage({ key: small.key });
    const { page } = w;
    // One search asks four things: the second search goes over five a minute.
    await page.goto(`${smallBase}/explore`, { waitUntil: 'domcontentloaded' });
    await shown(page, new URLSearchParams());
    await page.type('#q', 'engineer');
    await shown(page, new URLSearchParams({ title: 'engineer' }));
    const text = await page.$eval('#error', (e) => e.textContent ?? '');
    expect(text).toMatch(
      /^429 rate limit exceeded: at most 5 requests per 60 seconds; retry after \d+ s \(asking again at /,
    );
    await page.close();
  }, 60_000);
});
