// The place a checkpoint may record while pages of one list commit out of order.
import { describe, expect, it } from 'vitest';
import { PageProgress } from '../../src/sync/page-progress.js';

describe('PageProgress', () => {
  it('never records a place past a page still being written', () => {
    const progress = new PageProgress(3);
    // Pages 3, 4 and 5 are being written; 5 commits first.
    expect(progress.nextToRead(5)).toBe(3);
    progress.markDone(5);
    expect(progress.nextToRead()).toBe(3);
    expect(progress.nextToRead(3)).toBe(4);
    progress.markDone(3);
    expect(progress.nextToRead(4)).toBe(6);
    progress.markDone(4);
    expect(progress.nextToRead()).toBe(6);
  });

  it('is complete (null) only once every page up to the last is done', () => {
    const progress = new PageProgress(1);
    progress.end(2);
    expect(progress.nextToRead(2)).toBe(1);
    progress.markDone(1);
    expect(progress.nextToRead(2)).toBeNull();
    expect(progress.nextToRead()).toBe(2);
    progress.markDone(2);
    expect(progress.nextToRead()).toBeNull();
  });

  it('counts every page of a group committing together', () => {
    const progress = new PageProgress(1);
    // Pages 1-5 commit in one transaction: its checkpoint points past all of them, and past 6 only once 6 is done.
    expect(progress.nextToRead(1, 2, 3, 4, 5)).toBe(6);
    progress.markDone(7);
    expect(progress.nextToRead(1, 2, 3, 4, 5, 6)).toBe(8);
  });
});
