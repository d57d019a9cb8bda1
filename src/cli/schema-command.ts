// `ds-mirror schema`: the data dictionary (every table, view and column) as Markdown or JSON. It needs no
// database: the dictionary is code, the same text as the README's Schema section and PostgreSQL's comments.
import { InvalidArgumentError, type Command } from 'commander';
import type { CliIo } from './io.js';
import { ConfigError } from '../errors.js';
import { DICTIONARY } from '../dictionary/index.js';
import { dictionaryJson, dictionaryMarkdown } from '../dictionary/render.js';

const FORMATS = ['markdown', 'json'] as const;

export function schemaCommand(program: Command, io: CliIo): void {
  program
    .command('schema')
    .description('Print the data dictionary: every table, view and column, what it holds')
    .argument('[names...]', 'only these tables or views')
    .option(
      '--format <format>',
      `output format: ${FORMATS.join(' or ')}`,
      (value: string) => {
        if (!(FORMATS as readonly string[]).includes(value)) throw new InvalidArgumentError(`format must be ${FORMATS.join(' or ')}.`);
        return value;
      },
      'markdown',
    )
    .action((names: string[], opts: { format: (typeof FORMATS)[number] }) => {
      const unknown = names.filter((n) => !DICTIONARY.some((t) => t.name === n));
      if (unknown.length > 0) throw new ConfigError(`no table or view named ${unknown.join(', ')}; run ds-mirror schema to list them.`);
      const docs = names.length === 0 ? DICTIONARY : DICTIONARY.filter((t) => names.includes(t.name));
      io.stdout.write(opts.format === 'json' ? dictionaryJson(docs) : dictionaryMarkdown(docs));
    });
}
