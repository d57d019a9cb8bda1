// The dictionary as Markdown (docs/schema.md and `ds-mirror schema`) and as JSON.
import type { TableDoc } from './types.js';

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

function tableMarkdown(t: TableDoc): string {
  const typed = t.kind === 'view';
  const head = typed ? '| column | type | description |\n|---|---|---|' : '| column | description |\n|---|---|';
  const rows = t.columns.map((c) =>
    typed ? `| \`${c.name}\` | ${c.kind} | ${cell(c.description)} |` : `| \`${c.name}\` | ${cell(c.description)} |`,
  );
  return [`#### \`${t.name}\`${typed ? ' (view)' : ''}`, '', t.description, '', head, ...rows].join('\n');
}

/** One folded block per group (the page stays readable; GitHub renders tables inside <details>). */
export function dictionaryMarkdown(docs: readonly TableDoc[]): string {
  const groups = [...new Set(docs.map((d) => d.group))];
  const parts: string[] = [];
  for (const group of groups) {
    const members = docs.filter((d) => d.group === group);
    parts.push(`<details><summary><b>${group}</b>: ${members.map((t) => `<code>${t.name}</code>`).join(', ')}</summary>`, '');
    for (const t of members) parts.push(tableMarkdown(t), '');
    parts.push('</details>', '');
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

export function dictionaryJson(docs: readonly TableDoc[]): string {
  return `${JSON.stringify(docs, null, 2)}\n`;
}
