// /docs: the interactive API reference (Swagger UI from its npm package, swagger-ui-dist), rendered in
// the browser from the live /openapi.json. Every asset is served from here: the page loads nothing
// from elsewhere (no fonts, no validator badge; Swagger UI sends no telemetry), and its
// Content-Security-Policy holds it to that. It needs no key; "Try it out" sends the key entered under
// "Authorize" as a bearer header.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { pagePolicy } from './explore.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route sets its own content type (the API's responses are all JSON). */
    ownContentType?: boolean;
  }
}

const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Job Postings Search Service API reference</title>
  <link rel="stylesheet" href="/docs/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/favicon-32x32.png">
  <style>body { margin: 0; } .explore { margin: 0; padding: 6px 20px; font: 14px sans-serif; }</style>
</head>
<body>
  <p class="explore">See the index through this API: <a href="/explore">explore it</a> (search, facets, charts).</p>
  <div id="swagger-ui"></div>
  <script src="/docs/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

// Swagger UI's options: the document of this service, no online validator, no remote config.
const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  queryConfigEnabled: false,
  persistAuthorization: false,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
});
`;

// Styles inline too: Swagger UI sets style attributes as it renders.
const POLICY = pagePolicy(" 'unsafe-inline'");

const ASSETS: Record<string, { type: string; file?: string; text?: string }> = {
  '/docs': { type: 'text/html; charset=utf-8', text: PAGE },
  '/docs/init.js': { type: 'text/javascript; charset=utf-8', text: INIT },
  '/docs/swagger-ui.css': { type: 'text/css; charset=utf-8', file: 'swagger-ui.css' },
  '/docs/swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8', file: 'swagger-ui-bundle.js' },
  '/docs/favicon-32x32.png': { type: 'image/png', file: 'favicon-32x32.png' },
};

export function registerDocs(app: FastifyInstance): void {
  for (const [url, asset] of Object.entries(ASSETS)) {
    // Read once, when the service starts.
    const body = asset.text ?? readFileSync(path.join(dist, asset.file!));
    app.get(url, { config: { ownContentType: true } }, async (_req, reply) =>
      reply
        .header('content-type', asset.type)
        .header('cache-control', 'public, max-age=3600')
        .header('content-security-policy', POLICY)
        .header('referrer-policy', 'no-referrer')
        .send(body),
    );
  }
}
