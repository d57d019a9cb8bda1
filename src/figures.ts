// How every command and page writes a count for a person: digits grouped (133,000, never 133000) and the
// noun agreeing with the number (1 request, 2 requests), so no output reads "1 requests" or "view(s)".

/** A whole number with thousands separators: 109,226. */
export function count(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** The count and its noun: `counted(1, 'request')` → "1 request", `counted(2_500, 'request')` → "2,500 requests". */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${count(n)} ${Math.round(n) === 1 ? noun : plural}`;
}
