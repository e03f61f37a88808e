// A typed client of the service: openapi-fetch over the types generated from /openapi.json.
//   const api = jobsClient('http://127.0.0.1:8080', process.env.JPS_KEY!);
//   const { data, error } = await api.GET('/v1/jobs', { params: { query: { country: 'DE', limit: 5 } } });
import createClient from 'openapi-fetch';
import type { components, paths } from './schema.ts';

export type Job = components['schemas']['Job'];
export type ApiError = components['schemas']['Error'];

export function jobsClient(baseUrl: string, key: string) {
  return createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${key}` } });
}
