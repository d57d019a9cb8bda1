// `ds-mirror schema`: the data dictionary (every table, view and column) as plain text, Markdown or JSON. It
// needs no database: the dictionary is code, the same text as docs/schema.md and PostgreSQL's comments.
import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo } from './io.js';
import { ConfigError } from '../errors.js';
import { DICTIONARY } from '../dictionary/index.js';
import { dictionaryJson, dictionaryMarkdown } from '../dictionary/render.js';
import type { TableDoc } from '../dictionary/types.js';
import { dictionaryText } from './schema-text.js';

const FORMATS = ['text', 'md', 'markdown', 'json'] as const;

export function schemaCommand(program: Command, io: CliIo): void {
  program
    .command('schema')
    .description('Print the data dictionary: every table, view and column, what it holds')
    .argument('[names...]', 'only these tables or views')
    .option(
      '--format <format>',
      'text (for reading in a terminal), md (Markdown, as in docs/schema.md) or json',
      (value: string) => {
        if (!(FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError('format must be text, md or json.');
        return value;
      },
      'text',
    )
    .option('--changes', "print the changes of the service's shape the mirror saw instead (v_schema_changes; reads the database)")
    .action(async (names: string[], opts: { format: (typeof FORMATS)[number]; changes?: boolean }, command: Command) => {
      if (opts.changes) return printChanges(io, command, opts.format === 'json');
      const unknown = names.filter((n) => !DICTIONARY.some((t) => t.name === n));
      if (unknown.length > 0) throw new ConfigError(`no table or view named ${unknown.join(', ')}; run ds-mirror schema to list them.`);
      const docs = names.length === 0 ? DICTIONARY : DICTIONARY.filter((t) => names.includes(t.name));
      const render = { json: dictionaryJson, md: dictionaryMarkdown, markdown: dictionaryMarkdown, text: textFor(io) }[opts.format];
      io.stdout.write(render(docs));
    });
}

/** The changes of the service's shape, one line each (or JSON), most recently seen first. */
async function printChanges(io: CliIo, command: Command, json: boolean): Promise<void> {
  const [{ commandContext, openMirrorToRead }, { changeLine, readSchemaChanges }] = await Promise.all([
    import('./context.js'),
    import('../sync/index.js'),
  ]);
  const store = await openMirrorToRead(commandContext(command, io));
  try {
    const changes = await readSchemaChanges(store);
    if (json) io.stdout.write(`${JSON.stringify(changes, null, 2)}\n`);
    else if (changes.length === 0) io.stdout.write('No change of the service’s shape seen.\n');
    else io.stdout.write(`${changes.map(changeLine).join('\n')}\n`);
  } finally {
    await store.close();
  }
}

/** Plain text, wrapped to the terminal's width (100 columns when not a terminal). */
function textFor(io: CliIo): (docs: readonly TableDoc[]) => string {
  return (docs) => dictionaryText(docs, io.stdout.columns || 100);
}
