// Import rules checked in CI (`npm run lint:deps`): imports go one way, so no module may reach itself.
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
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
  },
};
