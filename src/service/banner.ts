// What the person who ran `npm start` reads on stderr once the service listens: where it is, and a curl
// that works as pasted. The demo key is written out only on a terminal (never into a log file); anywhere
// else, and on later starts, the curl uses $KEY and the line before it makes one.

export const MAKE_KEY = 'KEY=$(npm run -s cli -- keys create --account demo)';

export interface BannerFacts {
  version: string;
  /** The address clients use, e.g. http://127.0.0.1:8080. */
  base: string;
  workers: number;
  /** The demo key created by this start, if any. */
  key?: string;
  /** Whether stderr is a terminal. */
  terminal: boolean;
}

/** The address a client on this host uses for the bound one (0.0.0.0 and :: are not addresses to call). */
export function clientBase(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/** The lines about a demo key created at this start, printed before the banner (none without one). */
export function newKeyLines(key: string | undefined, terminal: boolean): string[] {
  if (!key) return [];
  if (terminal)
    return [
      `created account "demo" with the API key ${key}`,
      '(shown once: it cannot be recovered; keep it)',
    ];
  return ['created account "demo" with an API key, written out only on a terminal (stderr is not one here)'];
}

export function bannerLines(f: BannerFacts): string[] {
  const shown = f.key && f.terminal;
  const workers = f.workers > 1 ? ` (${f.workers} workers)` : '';
  return [
    '',
    `Job Postings Search Service ${f.version} listening on ${f.base}${workers}`,
    ...(shown ? [] : [`  ${MAKE_KEY}`]),
    `  curl -H "Authorization: Bearer ${shown ? f.key : '$KEY'}" "${f.base}/v1/jobs?limit=2"`,
    `  OpenAPI: ${f.base}/openapi.json   health: ${f.base}/v1/health   docs: ${f.base}/docs`,
    `  explore the index in a browser: ${f.base}/explore`,
    '',
  ];
}
