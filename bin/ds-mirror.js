#!/usr/bin/env node
// Runs the TypeScript CLI in place (tsx), so `npx ds-mirror` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv);
