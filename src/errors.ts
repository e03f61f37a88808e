// The error catalog: every error body the service can send, with its status and headers.
// Nothing else may produce an error response, so no internal message can leak.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(String(body.error));
  }
}

/** A 400 that names the parameter and says what was wrong with it. */
export class ParamError extends ApiError {
  constructor(
    readonly param: string,
    readonly hint: string,
  ) {
    super(400, { error: 'invalid request', param, hint });
  }
}

export const errors = {
  invalidParam: (param: string, hint: string) => new ParamError(param, hint),
  unauthorized: () =>
    new ApiError(401, { error: 'invalid or missing api key', hint: 'Authorization: Bearer <key>' }),
  notFound: () => new ApiError(404, { error: 'not found' }),
  unknownEndpoint: () => new ApiError(404, { error: 'unknown endpoint', see: '/openapi.json' }),
  methodNotAllowed: () => new ApiError(405, { error: 'method not allowed' }, { allow: 'GET, OPTIONS' }),
  rateLimited: (retryAfterSeconds: number, limit: number) =>
    new ApiError(
      429,
      {
        error: 'rate limit exceeded',
        hint: `at most ${limit} requests per 60 seconds; retry after ${retryAfterSeconds} s`,
      },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  quotaExhausted: (quota: number, resetsAt: string) =>
    new ApiError(429, {
      error: 'monthly quota exhausted',
      hint: `the monthly quota of ${quota} requests is used up; it resets at ${resetsAt}`,
    }),
  unavailable: (hint: string, retryAfterSeconds = 1) =>
    new ApiError(503, { error: 'service unavailable', hint }, { 'retry-after': String(retryAfterSeconds) }),
  /** Too much expensive work in flight (per process or per key); retry shortly. */
  busy: (hint: string, retryAfterSeconds = 1) =>
    new ApiError(
      429,
      { error: 'too many expensive requests', hint },
      { 'retry-after': String(retryAfterSeconds) },
    ),
  // Errors of the HTTP layer itself, answered before any route runs; they never echo the request.
  badRequest: () => new ApiError(400, { error: 'bad request' }),
  requestTimeout: () => new ApiError(408, { error: 'request timeout' }),
  payloadTooLarge: () => new ApiError(413, { error: 'payload too large' }),
  uriTooLong: () => new ApiError(414, { error: 'uri too long' }),
  headersTooLarge: () => new ApiError(431, { error: 'request header fields too large' }),
  internal: (requestId: string) => new ApiError(500, { error: 'internal error', request_id: requestId }),
};
