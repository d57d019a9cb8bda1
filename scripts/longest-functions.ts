// Lists the longest functions under src/ (lines from signature to closing brace), longest first.
// `npx tsx scripts/longest-functions.ts [count]`; test/structure/function-length.test.ts holds the limit.
import { longestFunctions } from '../test/structure/function-lengths.js';

const count = Number(process.argv[2] ?? 15);
for (const f of longestFunctions('src').slice(0, count)) console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
