// Gives every worker thread tsx's loader, so that a worker whose entry is TypeScript (the SQLite writer
// thread, run from src/ by the tests and `npm run demo`) loads. Node 20 runs a `--require` preload in each
// worker (an `--import` one only in the main thread), and tsx registers its hooks in the main thread only:
// `node --require ./scripts/ts-threads.cjs --import tsx ...`; the main thread is left to `--import tsx`.
const { register } = require('node:module');
const { pathToFileURL } = require('node:url');
const { isMainThread } = require('node:worker_threads');

// tsx's hooks refuse to start without data (their way of telling `--import` from the old `--loader`).
if (!isMainThread) register('tsx/esm', pathToFileURL(__filename), { data: {} });
