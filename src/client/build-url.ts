// URL building: the base URL's own path prefix is kept, arrays become repeated keys (docs/design-choices.md),
// undefined values are dropped. Commas stay literal so comma-joined lists read as the spec writes them.

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;
export type Query = Record<string, QueryValue>;

function encode(value: string | number | boolean): string {
  return encodeURIComponent(String(value)).replace(/%2C/gi, ',');
}

/** `k=v&k2=a&k2=b`, without the leading `?`; '' when nothing is left. */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const k = encode(key);
    if (Array.isArray(value)) {
      for (const item of value as readonly (string | number)[]) parts.push(`${k}=${encode(item)}`);
    } else {
      parts.push(`${k}=${encode(value as string | number | boolean)}`);
    }
  }
  return parts.join('&');
}

/** Path plus query, as sent on the wire after the base URL's prefix: `/v1/assets?page=2`. */
export function pathWithQuery(path: string, query: Query | undefined): string {
  const qs = encodeQuery(query);
  if (!qs) return path;
  return path + (path.includes('?') ? '&' : '?') + qs;
}

/** The full URL of a request; exported for the CLI's `--plan`. */
export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  return baseUrl.replace(/\/+$/, '') + pathWithQuery(path, query);
}
