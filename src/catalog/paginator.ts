// Paging as catalog data: which parameters carry the page and its size, and the largest size the endpoint allows.
import type { PageNumberPaginator } from './types.js';

/** The /v1 paginator: `page`/`limit` at the endpoint's largest page. */
export function pageNumber(pageSize: number): PageNumberPaginator {
  return { type: 'page-number', pageParam: 'page', limitParam: 'limit', pageSize };
}
