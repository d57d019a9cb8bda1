// `npm run docs:architecture`: redraws the floors of docs/architecture.md from the imports
// (test/structure/room-graph.ts); test/structure/rooms.test.ts fails when the drawing differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { drawFloors, roomGraph, withFloors } from '../test/structure/room-graph.js';

const url = new URL('../docs/architecture.md', import.meta.url);
writeFileSync(url, withFloors(readFileSync(url, 'utf8'), drawFloors(roomGraph())));
process.stdout.write('docs/architecture.md: floors redrawn\n');
