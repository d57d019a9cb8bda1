// `npm run docs:schema`: rewrites the generated sections of docs/ (the data dictionary in docs/schema.md, the worked
// examples in docs/analyst.md) from the code and docs/examples/.
import { readFileSync, writeFileSync } from 'node:fs';
import { DICTIONARY } from '../src/dictionary/index.js';
import { dictionaryMarkdown } from '../src/dictionary/render.js';
import { writeSection } from '../src/dictionary/generated-sections.js';
import { examplesMarkdown, workedExamples } from '../src/dictionary/worked-examples.js';

function rewrite(file: string, section: string, content: string): void {
  const url = new URL(`../docs/${file}`, import.meta.url);
  writeFileSync(url, writeSection(readFileSync(url, 'utf8'), section, content));
  process.stdout.write(`docs/${file}: generated ${section} section rewritten\n`);
}

rewrite('schema.md', 'schema', dictionaryMarkdown(DICTIONARY));
rewrite('analyst.md', 'examples', examplesMarkdown(workedExamples()));
