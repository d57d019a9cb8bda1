// The order test files start in. Workers take files from one queue, so a long file started last is the
// run's tail. Files that wait on the real clock start first, then the files that opt in to end-to-end
// time-outs (timeouts.ts), then the rest; within each, the longest last time (vitest's cache) or, on a
// fresh checkout with no cache, the largest file first.
import { readFileSync } from 'node:fs';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files); // vitest's own order: cached duration, else size
    const rank = new Map(bySize.map((spec) => [spec.moduleId, tierOf(spec.moduleId)]));
    return bySize
      .map((spec, i) => ({ spec, i }))
      .sort((a, b) => rank.get(a.spec.moduleId)! - rank.get(b.spec.moduleId)! || a.i - b.i)
      .map(({ spec }) => spec);
  }
}

function tierOf(file: string): number {
  const source = readFileSync(file, 'utf8');
  if (source.includes('slowFile(REAL_MINUTES)')) return 0;
  if (source.includes('slowFile(')) return 1;
  return 2;
}
