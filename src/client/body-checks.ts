// Checks a caller hands the client so that a 2xx body of the wrong shape fails inside the attempt and
// is retried (a proxy's HTML page, a cut body), rather than after the retries are over. Each returns
// the problem in a few words ("a body that is ..."), or undefined when the body is fine.

export type BodyCheck<B> = (body: B) => string | undefined;

const isSpace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

/**
 * For bytes kept unparsed until later: a JSON object starts with `{` and ends with `}`, whitespace aside.
 * A constant-time look at both ends, so pages fetched ahead cost no parse; the full parse comes later.
 */
export const jsonObjectBytes: BodyCheck<Buffer> = (body) => {
  let start = 0;
  let end = body.length - 1;
  while (start <= end && isSpace(body[start])) start++;
  while (end > start && isSpace(body[end])) end--;
  return body[start] === 0x7b && body[end] === 0x7d ? undefined : 'a body that is not JSON (not a JSON object)';
};

/** `{"data": [...]}`: a list, a page of one, or the token-unlock list. */
export const dataArray: BodyCheck<unknown> = (body) =>
  Array.isArray((body as { data?: unknown } | null)?.data) ? undefined : 'a body without a data array';

/** `{"data": {...}}`: one item's detail. */
export const dataObject: BodyCheck<unknown> = (body) => {
  const data = (body as { data?: unknown } | null)?.data;
  return data !== null && typeof data === 'object' && !Array.isArray(data) ? undefined : 'a body without a data object';
};
