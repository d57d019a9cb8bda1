// Run by `npm run build` after tsc: replays the compiled migrations into an in-memory SQLite database and
// writes the schema a new SQLite file then gets in one transaction (src/store/sqlite/fresh-schema.ts);
// and records the hashes of the repeatable objects the code alone defines (src/store/built-hashes.ts).
const { writeFreshSchema } = await import('../dist/src/store/sqlite/capture-fresh-schema.js');
const { writeBuiltHashes } = await import('../dist/src/store/built-hashes.js');
const { MIRROR_SCHEMA } = await import('../dist/src/mirror-schema/index.js');
// The hashes first: the replay reads them (a previous build's would be recorded in the prepared schema).
process.stdout.write(`recorded ${await writeBuiltHashes(MIRROR_SCHEMA)}\n`);
process.stdout.write(`prepared ${await writeFreshSchema(MIRROR_SCHEMA)}\n`);
