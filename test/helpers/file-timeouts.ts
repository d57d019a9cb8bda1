// Each file's bound on its tests and hooks, from what its first line says (timeouts.ts): vitest runs this
// setup file again before each file, and its bound holds for that file (vitest resets the configuration
// after each). One project for every file: two (one per bound) cost each worker a second start and every
// module a second transform and load, since vitest ends the first project's workers before the second's.
import { expect, vi } from 'vitest';
import { END_TO_END, fileKind } from './timeouts.js';

const file = expect.getState().testPath;
if (file && fileKind(file) !== 'unit') vi.setConfig({ testTimeout: END_TO_END, hookTimeout: END_TO_END });
