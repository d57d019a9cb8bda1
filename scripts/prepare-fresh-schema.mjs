// Run by `npm run build` after tsc: replays the compiled migrations into an in-memory SQLite database and
// writes the schema a new SQLite file then gets in one transaction (src/store/sqlite/fresh-schema.ts).
const { writeFreshSchema } = await import('../dist/src/store/sqlite/capture-fresh-schema.js');
const { MIRROR_SCHEMA } = await import('../dist/src/mirror-schema/index.js');
const file = await writeFreshSchema(MIRROR_SCHEMA);
process.stdout.write(`prepared ${file}\n`);
