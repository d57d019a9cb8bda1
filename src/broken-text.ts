// Bodies whose bytes are not all UTF-8. Node decodes such bytes as U+FFFD, and JSON.parse then succeeds,
// so a record would be stored with its text silently changed (the receiver refuses the same bytes). The
// records of such a body are marked where it is parsed, and whichever of them holds a U+FFFD is set
// aside, with the rest of its page written as usual. A page of valid UTF-8 costs one `includes`.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const SUSPECT = new WeakSet<object>();

/** Marks `records` when `text`, decoded from `bytes`, replaced bytes that were not UTF-8. */
export function noteBrokenText(bytes: Uint8Array, text: string, records: readonly unknown[]): void {
  if (!text.includes('\uFFFD')) return;
  try {
    utf8.decode(bytes);
    return; // a real U+FFFD, sent as its three bytes
  } catch {
    for (const r of records) if (r !== null && typeof r === 'object') SUSPECT.add(r);
  }
}

/** Why a record of a marked body cannot be stored as received, or null. */
export function brokenTextProblem(record: unknown, raw: string): string | null {
  if (record === null || typeof record !== 'object' || !SUSPECT.has(record) || !raw.includes('\uFFFD')) return null;
  return 'the record holds bytes that are not UTF-8 (its text cannot be stored as the service sent it)';
}
