// Before a run: can the service be reached at all? One connection (and TLS handshake for https), no
// request, nothing counted against a quota. A wrong address (a closed port, https on an http port, a
// host name that does not resolve) is then one line per API family the run would use, within seconds,
// instead of every stream retrying its first page and failing in a table.
import { connect as tcpConnect, type Socket } from 'node:net';
import { FAMILY_NAMES, familyOf } from '../budget/index.js';
import type { StreamDef } from '../catalog/types.js';

/** The longest a connection may take before the service counts as not answering. */
export const REACH_TIMEOUT_MS = 10_000;

/** One line per family of `streams` when the service cannot be reached; none when it can. */
export async function unreachedFamilies(baseUrl: string, streams: readonly StreamDef[], timeoutMs = REACH_TIMEOUT_MS): Promise<string[]> {
  const why = await whyUnreachable(new URL(baseUrl), timeoutMs);
  if (why === null) return [];
  const families = [...new Set(streams.map(familyOf))];
  return families.map((f) => `${FAMILY_NAMES[f]}: cannot reach ${baseUrl} (${why}); nothing was synced: check DS_BASE_URL (or --base-url)`);
}

/** Why a connection to the URL's host fails, in plain words, or null when it succeeds. */
export function whyUnreachable(url: URL, timeoutMs: number): Promise<string | null> {
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (https ? 443 : 80));
  return new Promise((resolve) => {
    // node:tls is loaded for an https address alone: a sync of an http:// service (the sandbox) skips its load.
    const socket: Socket = https
      ? process
          .getBuiltinModule('node:tls')
          .connect({ host, port, servername: /^[\d.:]+$/.test(host) ? undefined : host, ALPNProtocols: ['http/1.1'] })
      : tcpConnect({ host, port });
    const done = (why: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(why);
    };
    const timer = setTimeout(() => done(`no answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    socket.once(https ? 'secureConnect' : 'connect', () => done(null));
    socket.once('error', (err: NodeJS.ErrnoException) => done(plainReason(err, host, port, https)));
  });
}

function plainReason(err: NodeJS.ErrnoException, host: string, port: number, https: boolean): string {
  const code = err.code ?? '';
  if (code === 'ECONNREFUSED') return `connection refused: nothing listens on ${host}:${port}`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `the host name ${host} does not resolve`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `no route to ${host}`;
  if (code === 'ECONNRESET') return `${host}:${port} closed the connection`;
  if (https && (code.startsWith('ERR_SSL') || code === 'EPROTO')) return `the TLS handshake failed (${code}): is it an http:// address?`;
  if (https && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `its TLS certificate is not trusted (${code})`;
  return `${code || 'error'}: ${err.message}`;
}
