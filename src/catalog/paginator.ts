// Paging as catalog data: which parameters carry the page and its size, and the largest size the endpoint allows.
import type { PageNumberSpec } from './types.js';

/** The /v1 paginator: `page`/`limit` at the endpoint's largest page. */
export function pageNumber(pageSize: number): PageNumberSpec {
  return { type: 'page-number', pageParam: 'page', limitParam: 'limit', pageSize };
}
