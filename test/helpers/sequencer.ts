// The order test files start in. Workers take files from one queue, so a long file started last is the
// run's tail. Files that wait on the real clock start first, then the end-to-end files (timeouts.ts),
// then the rest; within each, the longest last time (vitest's cache) or, on a fresh checkout with no
// cache, the largest file first.
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { type FileKind, fileKind } from './timeouts.js';

const TIER: Record<FileKind, number> = { 'real-clock': 0, 'end-to-end': 1, unit: 2 };

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files); // vitest's own order: cached duration, else size
    const tier = new Map(ordered.map((spec) => [spec.moduleId, TIER[fileKind(spec.moduleId)]]));
    return ordered
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => tier.get(a.spec.moduleId)! - tier.get(b.spec.moduleId)! || a.i - b.i)
      .map(({ spec }) => spec);
  }
}
