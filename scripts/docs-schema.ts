// `npm run docs:schema`: rewrites the README's generated sections (the data dictionary) from the code.
import { readFileSync, writeFileSync } from 'node:fs';
import { DICTIONARY } from '../src/dictionary/index.js';
import { dictionaryMarkdown } from '../src/dictionary/render.js';
import { writeSection } from '../src/dictionary/readme-section.js';

const README = new URL('../README.md', import.meta.url);
let readme = readFileSync(README, 'utf8');
readme = writeSection(readme, 'schema', dictionaryMarkdown(DICTIONARY));
writeFileSync(README, readme);
process.stdout.write('README.md: generated sections rewritten\n');
