// How every command and page writes a count for a person: digits grouped (133,000, never 133000) and the
// noun agreeing with the number (1 request, 2 requests), so no output reads "1 requests" or "view(s)".

/**
 * A whole number with thousands separators: 109,226. Grouped by hand: toLocaleString builds an ICU formatter
 * at each call, about 0.1 ms, and `status` writes hundreds of counts (a tenth of its CPU went there).
 */
export function count(n: number): string {
  const whole = Math.round(n);
  if (!Number.isSafeInteger(whole)) return whole.toLocaleString('en-US'); // NaN, infinities, past 2^53
  const grouped = String(Math.abs(whole)).replace(/\B(?=(\d{3})+$)/g, ',');
  return whole < 0 ? `-${grouped}` : grouped;
}

/** The count and its noun: `counted(1, 'request')` → "1 request", `counted(2_500, 'request')` → "2,500 requests". */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${count(n)} ${Math.round(n) === 1 ? noun : plural}`;
}
