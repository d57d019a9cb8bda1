// What a route is: a path pattern (`:name` segments), the credential rule that guards it, a handler.
import type { World } from '../data/world.js';

/** `api-key`: x-api-key; `charts`: x-api-key or x-service-api-key, never both; `open`: none. */
export type AuthRule = 'api-key' | 'charts' | 'open';

export interface RouteContext {
  w: World;
  params: Record<string, string>;
  query: URLSearchParams;
}

/** A non-JSON 200 body (the transparency download). */
export class RawBody {
  constructor(
    readonly contentType: string,
    readonly body: Buffer,
  ) {}
}

export interface Route {
  path: string;
  auth: AuthRule;
  /** Returns the JSON body of a 200 (or a RawBody); throws HttpError for anything else. */
  handle(ctx: RouteContext): unknown;
}
