// The data dictionary for a terminal: per group, each table or view with its description, then its
// columns in aligned rows, descriptions wrapped to the width (Markdown is `schema --format md`).
import type { TableDoc } from '../dictionary/types.js';

const INDENT = '  ';

export function dictionaryText(docs: readonly TableDoc[], width = 100): string {
  const out: string[] = [];
  for (const group of [...new Set(docs.map((d) => d.group))]) {
    out.push(`${group}`, '='.repeat(group.length), '');
    for (const t of docs.filter((d) => d.group === group)) out.push(...tableText(t, Math.max(width, 60)), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function tableText(t: TableDoc, width: number): string[] {
  const lines = [`${t.name}${t.kind === 'view' ? ' (view)' : ''}`, ...wrap(t.description, width - INDENT.length).map((l) => INDENT + l)];
  const nameWidth = Math.max(...t.columns.map((c) => c.name.length));
  const kindWidth = Math.max(0, ...t.columns.map((c) => c.kind?.length ?? 0));
  const lead = nameWidth + 2 + (kindWidth ? kindWidth + 2 : 0);
  lines.push('');
  for (const c of t.columns) {
    const head = `${c.name.padEnd(nameWidth)}  ${kindWidth ? `${(c.kind ?? '').padEnd(kindWidth)}  ` : ''}`;
    const text = wrap(c.description, Math.max(width - INDENT.length - lead, 30));
    lines.push(`${INDENT}${head}${text[0] ?? ''}`.trimEnd(), ...text.slice(1).map((l) => INDENT + ' '.repeat(lead) + l));
  }
  return lines;
}

/** Words into lines of at most `width` characters (a longer word gets a line of its own). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}
