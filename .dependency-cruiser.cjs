// Import rules checked in CI (`npm run lint:deps`): imports go one way, so no module may reach itself, and the
// rooms of src/ and schema/ beside it are layered (store at the bottom, the CLI at the top; docs/architecture.md).
// Cycles between rooms are checked by test/structure/rooms.test.ts.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A cycle means two modules own one concern; move the shared piece down a layer.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-stands-alone',
      severity: 'error',
      comment: 'The library never imports the tests, benches, scripts or the sandbox.',
      from: { path: '^src/' },
      to: { path: '^(test|bench|scripts|sandbox)/' },
    },
    {
      name: 'store-is-the-bottom',
      severity: 'error',
      comment:
        'The store (and its dialects) imports no room: not the service, the streams, who runs them, nor what it migrates to (handed in).',
      from: { path: '^src/store/' },
      to: { path: '^(src/[^/]+/|schema/|jobs/|scripts/)', pathNot: '^src/store/' },
    },
    {
      name: 'schema-above-the-store-only',
      severity: 'error',
      comment: "The migrations, views and triggers of schema/ are made of the store's SQL and types, nothing above it.",
      from: { path: '^schema/' },
      to: { path: '^(src/[^/]+/|jobs/|scripts/)', pathNot: '^src/store/' },
    },
    {
      name: 'client-knows-http-only',
      severity: 'error',
      comment: 'The client speaks HTTP to the service: no store, no streams, no runners.',
      from: { path: '^src/client/' },
      to: { path: '^src/(store|catalog|paging|requests|sync|budget|receiver|scheduler|observability|cli|export)/' },
    },
    {
      name: 'catalog-is-data',
      severity: 'error',
      comment: 'The catalog describes streams; it never runs them.',
      from: { path: '^src/catalog/' },
      to: { path: '^src/(client|paging|requests|sync|budget|receiver|scheduler|observability|cli|export)/' },
    },
    {
      name: 'requests-are-planned-not-sent',
      severity: 'error',
      comment: 'What a run asks for (paginators, windows, parents) is planned from the catalog and the store; sync and budget both use it.',
      from: { path: '^src/requests/' },
      to: { path: '^src/(client|sync|budget|receiver|scheduler|observability|cli|export)/' },
    },
    {
      name: 'paging-is-one-room',
      severity: 'error',
      comment:
        'Paging (the paginators, the guard, the page loop and its arithmetic) is built from the catalog alone: whoever pages or prices pages asks it.',
      from: { path: '^src/paging/' },
      to: { path: '^src/[^/]+/', pathNot: '^src/(paging|catalog)/' },
    },
    {
      name: 'budget-counts-without-running',
      severity: 'error',
      comment:
        "The budget prices what a run would request by asking each stream's runner for its plan, through sync's face (index.ts): it never reaches into the runners, nor runs one.",
      from: { path: '^src/budget/' },
      to: { path: '^src/(sync|receiver|scheduler|observability|cli|export)/', pathNot: '^src/sync/index\\.ts$' },
    },
    {
      name: 'sync-below-its-callers',
      severity: 'error',
      comment: 'The scheduler, the CLI and the daemon run sync; sync never reaches back up.',
      from: { path: '^src/sync/' },
      to: { path: '^src/(receiver|scheduler|observability|cli|export)/' },
    },
    {
      name: 'receiver-writes-through-the-store',
      severity: 'error',
      comment: 'The receiver verifies and appends deliveries through the store; it runs no sync.',
      from: { path: '^src/receiver/' },
      to: { path: '^src/(client|requests|sync|budget|scheduler|observability|cli)/' },
    },
    {
      name: 'dialects-behind-their-list',
      severity: 'error',
      comment: "A dialect's folder is reached through src/store/dialects.ts: others ask the dialect object or the adapter.",
      from: { path: '^(src|schema)/', pathNot: '^src/store/(dialects\\.ts$|sqlite/|postgres/)' },
      to: { path: '^src/store/(sqlite|postgres)/' },
    },
    {
      name: 'room-dialects-behind-their-list',
      severity: 'error',
      comment:
        "A room's own piece of a dialect (src/budget/postgres/: the shared pace's statement) is reached through the room's list of them (shared-pace.ts), as the store's dialects through dialects.ts.",
      from: { path: '^(src|schema)/', pathNot: '^src/(store/|budget/shared-pace\\.ts$|[^/]+/(sqlite|postgres)/)' },
      to: { path: '^src/[^/]+/(sqlite|postgres)/', pathNot: '^src/store/' },
    },
    {
      name: 'dialects-apart',
      severity: 'error',
      comment: "One dialect never borrows from another: what they share is in the store's root.",
      from: { path: '^src/store/sqlite/' },
      to: { path: '^src/store/postgres/' },
    },
    {
      name: 'dialects-apart-too',
      severity: 'error',
      comment: "One dialect never borrows from another: what they share is in the store's root.",
      from: { path: '^src/store/postgres/' },
      to: { path: '^src/store/sqlite/' },
    },
    {
      name: 'copy-and-export-read-stores',
      severity: 'error',
      comment: 'copy and export read and write stores; they run no sync and serve no command but their own.',
      from: { path: '^src/(copy|export)/' },
      to: { path: '^src/(client|catalog|sync|budget|receiver|scheduler|observability|cli)/' },
    },
    {
      name: 'cli-calls-the-mirror',
      severity: 'error',
      comment:
        'The CLI parses, calls and prints: a run is put together by the mirror (src/mirror/); the scheduler, budget and sync are reached through their faces (index.ts) only, and what sync plans and pages with (src/requests/, src/paging/) not at all.',
      from: { path: '^src/cli/' },
      to: { path: '^src/(scheduler|budget|sync|requests|paging)/', pathNot: '^src/(scheduler|budget|sync)/index\\.ts$' },
    },
    {
      name: 'cli-is-the-top',
      severity: 'error',
      comment: 'Only the package entry point imports the command line.',
      from: { path: '^src/', pathNot: '^src/(cli/|index\\.ts$)' },
      to: { path: '^src/cli/' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
  },
};
