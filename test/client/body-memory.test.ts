import { describe, expect, it, vi } from 'vitest';
import { BodyMemory, bodyMemory, fullCollection } from '../../src/client/body-memory.js';
import { createClient } from '../../src/client/index.js';
import { json, startServer } from './test-server.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('BodyMemory: a full collection after every so many bytes of bodies', () => {
  it('collects once on the next turn after the threshold, however many bodies passed it in this one', async () => {
    let collections = 0;
    const memory = new BodyMemory(100, () => collections++);
    memory.read(60);
    await nextTurn();
    expect(collections).toBe(0);
    memory.read(60);
    memory.read(500);
    expect(collections).toBe(0); // not while the body just read is still being handled
    await nextTurn();
    expect(collections).toBe(1);
  });

  it('counts again from nothing after each collection', async () => {
    let collections = 0;
    const memory = new BodyMemory(100, () => collections++);
    memory.read(150);
    await nextTurn();
    memory.read(90);
    await nextTurn();
    expect(collections).toBe(1);
    memory.read(10);
    await nextTurn();
    expect(collections).toBe(2);
  });

  it("takes V8's full collection, which frees what nothing holds any more", async () => {
    const collect = fullCollection();
    let held: object | null = { buffer: Buffer.alloc(1024 * 1024) };
    const ref = new WeakRef(held);
    held = null;
    await nextTurn(); // a WeakRef keeps its target through the turn that made it
    collect();
    expect(ref.deref()).toBeUndefined();
  });

  it('counts every body the client reads, at its length in bytes', async () => {
    const server = await startServer();
    const read = vi.spyOn(bodyMemory, 'read');
    try {
      server.handle((_req, res) => json(res, 200, { error: null, data: ['é'.repeat(1000)] }));
      const client = createClient({ baseUrl: server.baseUrl, apiKey: 'k' });
      await client.get('/v1/assets');
      await client.get('/v1/assets');
      await client.close();
      const bytes = Buffer.byteLength(JSON.stringify({ error: null, data: ['é'.repeat(1000)] }));
      expect(read.mock.calls).toEqual([[bytes], [bytes]]);
    } finally {
      read.mockRestore();
      await server.close();
    }
  });
});
