// `npm run docs:schema`: rewrites the README's generated sections (the data dictionary, the worked examples) from
// the code and docs/examples/.
import { readFileSync, writeFileSync } from 'node:fs';
import { DICTIONARY } from '../src/dictionary/index.js';
import { dictionaryMarkdown } from '../src/dictionary/render.js';
import { writeSection } from '../src/dictionary/readme-section.js';
import { examplesMarkdown, workedExamples } from '../src/dictionary/worked-examples.js';

const README = new URL('../README.md', import.meta.url);
let readme = readFileSync(README, 'utf8');
readme = writeSection(readme, 'schema', dictionaryMarkdown(DICTIONARY));
readme = writeSection(readme, 'examples', examplesMarkdown(workedExamples()));
writeFileSync(README, readme);
process.stdout.write('README.md: generated sections rewritten\n');
