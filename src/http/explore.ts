// /explore: a page over the public API for seeing the index (instant search, facets, salary and trend
// charts, a posting's history). Plain HTML, CSS and JavaScript from src/http/explore/, copied to dist/ by
// the build and served from here, gzipped once at start; the page loads nothing from elsewhere, and its
// Content-Security-Policy lets it talk only to this service. The key is entered on the page, kept in the
// tab's session storage and sent as a bearer header, never in a URL.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of the service's pages (/explore, /docs): only this origin for scripts,
 * styles (`styles`: more sources of them), fetches and images; no framing, no forms posting elsewhere.
 */
export function pagePolicy(styles = ''): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${styles}`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

// Logos of other hosts are not loaded: the page draws a lettermark instead.
const POLICY = pagePolicy();

export const EXPLORE_HEADERS = {
  'content-security-policy': POLICY,
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
} as const;

const ASSETS: Record<string, { type: string; file: string }> = {
  '/explore': { type: 'text/html; charset=utf-8', file: 'index.html' },
  '/explore/explore.js': { type: 'text/javascript; charset=utf-8', file: 'explore.js' },
  '/explore/explore.css': { type: 'text/css; charset=utf-8', file: 'explore.css' },
};

export function registerExplore(app: FastifyInstance): void {
  for (const [url, asset] of Object.entries(ASSETS)) {
    // Read and compressed once, when the service starts.
    const plain = readFileSync(new URL(`./explore/${asset.file}`, import.meta.url));
    const gzipped = gzipSync(plain, { level: 9 });
    app.get(url, { config: { ownContentType: true } }, async (req, reply) => {
      reply
        .headers(EXPLORE_HEADERS)
        .header('content-type', asset.type)
        // The page may change with the service; its scripts are small. Revalidation is not supported.
        .header('cache-control', 'no-cache')
        .header('vary', 'accept-encoding');
      if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')))
        return reply.header('content-encoding', 'gzip').send(gzipped);
      return reply.send(plain);
    });
  }
}
