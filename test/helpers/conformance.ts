// The document cannot drift from the responses: every response an app gives the tests through
// inject() is recorded, and when the app closes each JSON body is validated (ajv, JSON Schema 2020-12
// as OpenAPI 3.1 uses) against the schema /openapi.json declares for its path and status. A status the
// document does not declare for the path is a failure too.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { App } from '../../src/http/app.ts';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
export interface OpenApiDoc {
  paths: Record<string, { get: Operation }>;
  components: { schemas: Record<string, unknown> };
}

export interface Exchange {
  method: string;
  url: string;
  status: number;
  contentType: string;
  body: string;
}

/** Validates a body against a schema of the document; returns what disagrees, or undefined. */
export function schemaValidator(doc: OpenApiDoc): (schema: unknown, body: unknown) => string | undefined {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  // The document's schemas refer to '#/components/schemas/X': those become $defs of one schema.
  const local = (schema: unknown) =>
    JSON.stringify(schema).replaceAll('"#/components/schemas/', '"openapi.json#/$defs/');
  ajv.addSchema({ $id: 'openapi.json', $defs: JSON.parse(local(doc.components.schemas)) });
  const compiled = new Map<string, ValidateFunction>();
  const validator = (schema: unknown): ValidateFunction => {
    const text = local(schema);
    let v = compiled.get(text);
    if (!v) {
      v = ajv.compile(JSON.parse(text));
      compiled.set(text, v);
    }
    return v;
  };
  return (schema, body) => {
    const v = validator(schema);
    if (v(body)) return undefined;
    return (v.errors ?? [])
      .slice(0, 4)
      .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
      .join('; ');
  };
}

/** Checks exchanges against one document; returns a message per mismatch. */
export function conformanceChecker(doc: OpenApiDoc): (x: Exchange) => string | undefined {
  const validate = schemaValidator(doc);
  // Literal paths first: /v1/jobs/count is not a job id.
  const templates = Object.keys(doc.paths)
    .sort((a, b) => Number(a.includes('{')) - Number(b.includes('{')))
    .map((p) => ({
      path: p,
      re: new RegExp(`^${p.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
    }));
  const errorSchema = { $ref: '#/components/schemas/Error' };

  return (x) => {
    if (x.status === 204 || x.method === 'HEAD') return undefined; // no body
    if (!x.contentType.startsWith('application/json')) return undefined; // the /docs page and its assets
    const where = `${x.method} ${x.url} → ${x.status}`;
    let body: unknown;
    try {
      body = JSON.parse(x.body);
    } catch {
      return `${where}: the body is not JSON: ${x.body.slice(0, 80)}`;
    }
    const path = x.url.split('?')[0].replace(/(.)\/+$/, '$1');
    const template = templates.find((t) => t.re.test(path));
    let schema: unknown;
    if (!template || x.method !== 'GET') {
      // Unknown endpoints (404) and other methods (405) answer with the error body.
      if (x.status < 400) return `${where}: a success outside the document`;
      schema = errorSchema;
    } else {
      const declared = doc.paths[template.path].get.responses[String(x.status)];
      if (!declared) return `${where}: status ${x.status} is not declared for ${template.path}`;
      schema = declared.content?.['application/json']?.schema;
      if (!schema) return `${where}: no JSON schema declared for ${template.path} ${x.status}`;
    }
    const problem = validate(schema, body);
    return problem && `${where}: ${problem}`;
  };
}

/**
 * Records every inject() response of the app; close() closes it and then fails when any recorded
 * response disagrees with the app's own /openapi.json.
 */
export function checkedApp(app: App): App {
  const inject = app.fastify.inject.bind(app.fastify) as (
    opts: InjectOptions | string,
  ) => Promise<LightMyRequestResponse>;
  const seen: Exchange[] = [];
  const recording = async (opts: InjectOptions | string) => {
    const res = await inject(opts);
    const method = typeof opts === 'string' ? 'GET' : (opts.method ?? 'GET').toUpperCase();
    const url = typeof opts === 'string' ? opts : String(opts.url ?? opts.path ?? '/');
    seen.push({
      method,
      url,
      status: res.statusCode,
      contentType: String(res.headers['content-type'] ?? ''),
      body: res.body,
    });
    return res;
  };
  (app.fastify as unknown as { inject: typeof recording }).inject = recording;
  const close = app.close.bind(app);
  return {
    ...app,
    fastify: app.fastify,
    async close() {
      let problems: string[] = [];
      if (seen.length) {
        const doc = (await inject('/openapi.json')).json() as OpenApiDoc;
        const check = conformanceChecker(doc);
        problems = seen.map(check).filter((m): m is string => m !== undefined);
      }
      await close();
      if (problems.length) {
        const unique = [...new Set(problems)];
        throw new Error(
          `${unique.length} response(s) disagree with /openapi.json:\n${unique.slice(0, 15).join('\n')}`,
        );
      }
    },
  };
}
