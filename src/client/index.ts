// The HTTP client of ds-mirror: the only module that talks to the Data Service.
export { API_FAMILIES, apiFamilyOf, credentialHeaders, type ApiFamily } from './api-family.js';
export { buildUrl, encodeQuery, type Query, type QueryValue } from './build-url.js';
export {
  ApiEnvelopeError,
  AuthError,
  BadResponseError,
  ClientError,
  HttpStatusError,
  NetworkError,
  NotFoundError,
  RequestBudgetError,
  RequestTimeoutError,
  ServiceQuotaError,
  type RequestFailure,
} from './client-errors.js';
export { createClient, type ApiClient, type ClientOptions, type ClientStats, type RequestEvent } from './create-client.js';
export type { RequestGate } from './request-gate.js';
export type { FamilyLimits, LimitsOption } from './family-lanes.js';
export { backoffDelay, parseRetryAfter, type Backoff } from './retry.js';
