// The reference page in a real browser: headless Chromium loads /docs from a listening service,
// shows every path of the document, runs one request with the key entered under "Authorize", and
// nothing it loads comes from anywhere but the service. Skipped where Chromium is not installed
// (CI installs it).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { CHROMIUM, haveChromium, launchChromium } from '../helpers/browser.ts';

if (!haveChromium) console.warn(`skipping the /docs browser test: no Chromium at ${CHROMIUM}`);

export const SCREENSHOT = path.resolve('test-results/docs.png');

let t: TestApp;
let base: string;
let browser: Browser;
let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;

beforeAll(async () => {
  if (!haveChromium) return;
  t = await createTestApp();
  await t.app.fastify.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.fastify.server.address() as AddressInfo).port}`;
  chromium = await launchChromium();
  browser = chromium.browser;
}, 60_000);

afterAll(async () => {
  await chromium?.close();
  await t?.close();
});

describe.skipIf(!haveChromium)('/docs in headless Chromium', () => {
  it('renders every path, runs a request with the key, and loads nothing from elsewhere', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (req) => requested.push(req.url()));
    const consoleErrors: string[] = [];
    page.on('pageerror', (err) => consoleErrors.push(String(err)));
    // What the Content-Security-Policy refused (the page's own assets must all pass it).
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text()))
        consoleErrors.push(msg.text());
    });

    await page.goto(`${base}/docs`, { waitUntil: 'networkidle0' });
    const spec = (await (await fetch(`${base}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    const paths = Object.keys(spec.paths);
    expect(paths.length).toBeGreaterThan(8);
    await page.waitForSelector('.opblock-summary-path', { timeout: 20_000 });
    const shown = await page.$$eval('.opblock-summary-path', (els) =>
      els.map((e) => e.getAttribute('data-path') ?? e.textContent?.trim() ?? ''),
    );
    expect([...shown].sort()).toEqual([...paths].sort());

    // Authorize with the bearer key.
    await page.click('.auth-wrapper .authorize');
    await page.waitForSelector('.modal-ux input');
    const bearerInput = await page.waitForSelector('.modal-ux section input[type=text], .modal-ux input');
    await bearerInput!.type(t.key);
    await page.click('.modal-ux .auth-btn-wrapper .authorize');
    await page.click('.modal-ux .btn-done, .modal-ux .close-modal');

    // Operations are grouped by the tags their routes declare, none under "default".
    const groups = await page.$$eval('.opblock-tag-section .opblock-tag', (els) =>
      els.map((e) => e.getAttribute('data-tag')),
    );
    expect(groups).toEqual(['Jobs', 'Feeds', 'Companies', 'Analytics', 'Dataset']);
    expect(await page.$$('[id^="operations-default-"]')).toHaveLength(0);

    // Open "Count matching jobs" (under Jobs) and run it.
    const OP = '#operations-Jobs-countMatchingJobs';
    const apiCalls: { url: string; auth?: string }[] = [];
    page.on('request', (req) => {
      if (req.url().includes('/v1/jobs/count'))
        apiCalls.push({ url: req.url(), auth: req.headers().authorization });
    });
    await page.click(`${OP} .opblock-summary`);
    await page.waitForSelector(`${OP} .try-out__btn`);
    await page.click(`${OP} .try-out__btn`);
    await page.click(`${OP} .execute`);
    await page.waitForSelector(`${OP} .live-responses-table .response-col_status`, {
      timeout: 20_000,
    });
    const status = await page.$eval(`${OP} .live-responses-table .response .response-col_status`, (e) =>
      e.textContent?.trim(),
    );
    expect(status).toBe('200');
    const body = await page.$eval(`${OP} .live-responses-table .microlight`, (e) => e.textContent?.trim());
    const { rows } = await t.db.write.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM jobs WHERE state = 0',
    );
    expect(JSON.parse(body!)).toEqual({ count: rows[0].n });
    expect(apiCalls).toHaveLength(1);
    expect(apiCalls[0].auth).toBe(`Bearer ${t.key}`);

    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });

    expect(consoleErrors).toEqual([]);
    expect((await fetch(`${base}/docs`)).headers.get('content-security-policy')).toContain(
      "default-src 'none'",
    );
    const elsewhere = requested.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('data:'));
    expect(elsewhere).toEqual([]);
    expect(requested).toContain(`${base}/openapi.json`);
  }, 90_000);
});
