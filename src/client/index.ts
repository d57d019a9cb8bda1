// The HTTP client of ds-mirror: the only module that talks to the Data Service.
export { API_FAMILIES, apiFamilyOf, credentialHeaders, type ApiFamily } from './api-family.js';
export { buildUrl, encodeQuery, type Query, type QueryValue } from './build-url.js';
export {
  AbandonedCallError,
  ApiEnvelopeError,
  AuthError,
  KeyRefusedError,
  BadResponseError,
  HttpStatusError,
  isClientError,
  NetworkError,
  NotFoundError,
  RequestBudgetError,
  RequestTimeoutError,
  ServiceQuotaError,
  TransientStatusError,
  UnsendableRequestError,
  type ClientError,
  type RequestFailure,
} from './client-errors.js';
export { dataArray, dataObject, jsonObjectBytes, type BodyCheck } from './body-checks.js';
export {
  createClient,
  type ApiClient,
  type CallOptions,
  type ClientOptions,
  type ClientStats,
  type RequestEvent,
} from './create-client.js';
export type { RequestGate } from './request-gate.js';
export type { FamilyLimits, LimitsOption } from './family-lanes.js';
export { backoffDelay, parseRetryAfter, type Backoff } from './retry.js';
