// The one content fingerprint of the mirror: a row's `row_hash` (sync and webhook receiver alike), a list
// page's `page_hashes.body_hash` and a fan-out parent's `fanout_parents.row_hash`. A stored hash is only
// ever compared with one computed the same way, so changing the algorithm would make every stored row
// look changed (and row_history record a version of each): it is SHA-1 base64url, as mirrors already hold.
import { hash } from 'node:crypto';

/**
 * A fingerprint, not a security boundary. SHA-1 is twice as fast as md5 on CPUs with SHA instructions
 * (most x86 and ARM servers) and about as fast without them; base64url keeps it to 27 characters.
 */
export function contentHash(data: string | Buffer): string {
  return hash('sha1', data, 'base64url');
}
