import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FullCollections, fullCollection } from '../../src/sync/full-collections.js';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('FullCollections: a full collection after every so many bytes of pages parsed', () => {
  it('collects once on the next turn after the threshold, however many pages passed it in this one', async () => {
    let collections = 0;
    const memory = new FullCollections(100, () => collections++);
    memory.parsed(60);
    await nextTurn();
    expect(collections).toBe(0);
    memory.parsed(60);
    memory.parsed(500);
    expect(collections).toBe(0); // not while the body just read is still being handled
    await nextTurn();
    expect(collections).toBe(1);
  });

  it('counts again from nothing after each collection', async () => {
    let collections = 0;
    const memory = new FullCollections(100, () => collections++);
    memory.parsed(150);
    await nextTurn();
    memory.parsed(90);
    await nextTurn();
    expect(collections).toBe(1);
    memory.parsed(10);
    await nextTurn();
    expect(collections).toBe(2);
  });

  it('takes the full collection the process exposes (`node --expose-gc`), and nothing where it exposes none', () => {
    let calls = 0;
    fullCollection(() => calls++)();
    expect(calls).toBe(1);
    expect(() => fullCollection(undefined)()).not.toThrow();
  });

  // (--liftoff-only beside it: no optimizing recompile of undici's WebAssembly parser to wait for at exit.)
  it('runs V8 with --expose-gc in the CLI launcher, so that a sync collects', () => {
    expect(readFileSync(new URL('../../bin/ds-mirror.js', import.meta.url), 'utf8').split('\n')[0]).toBe(
      '#!/usr/bin/env -S node --expose-gc --liftoff-only',
    );
  });
});
