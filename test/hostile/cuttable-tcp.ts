// A TCP relay in front of the test's PostgreSQL that a test can break: `hold` stops passing bytes (a
// server that accepts and says nothing), `cut` drops every connection and refuses new ones (the server
// down), `pass` relays again. Only the tool's connections go through it; the harness's own do not.
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type Mode = 'pass' | 'hold' | 'cut';

export interface CuttableTcp {
  /** `url` with its host and port replaced by the relay's. */
  url: string;
  set(mode: Mode): void;
  close(): Promise<void>;
}

export async function startCuttableTcp(url: string): Promise<CuttableTcp> {
  const target = new URL(url);
  let mode: Mode = 'pass';
  const pairs = new Set<[Socket, Socket]>();
  const held: (() => void)[] = [];
  const server: Server = createServer((client) => {
    if (mode === 'cut') return client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const relay = (from: Socket, to: Socket) =>
      from.on('data', (chunk) => {
        if (mode === 'pass') to.write(chunk);
        else held.push(() => to.write(chunk)); // sent once the relay passes again
      });
    relay(client, upstream);
    relay(upstream, client);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as AddressInfo).port);
  return {
    url: relayed.toString(),
    set(next) {
      mode = next;
      if (next === 'cut') {
        held.length = 0;
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
      }
      if (next === 'pass') for (const send of held.splice(0)) send();
    },
    close: () =>
      new Promise((resolve) => {
        for (const [client, upstream] of pairs) {
          client.destroy();
          upstream.destroy();
        }
        server.close(() => resolve());
      }),
  };
}
