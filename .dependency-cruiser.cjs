// The server's layers, top to bottom. A module may import its own layer and any layer below it,
// never one above, and no import cycle is allowed — type-only imports included, because a type
// cycle is a design cycle all the same. test/layers.test.ts runs these rules in `npm test`;
// `npx depcruise server` runs them by hand. server/README.md explains what lives where.
const LAYERS = [
  // Composition roots and separate programs: they wire everything and nothing imports them.
  { name: 'entry', path: '^server/(main\\.ts|cli\\.ts|app\\.ts|start\\.mjs|web-build\\.|build\\.|provider/|db/tools/|graphql/print-schema\\.ts)' },
  { name: 'http', path: '^server/http/' },
  { name: 'graphql', path: '^server/graphql/' },
  // Use cases `(deps, viewer, input)` and the credentials they check.
  { name: 'services', path: '^server/(services|auth)/' },
  // The agent runtime (turns, tools, models, context) and message routing.
  { name: 'runtime', path: '^server/(runtime|routing)/' },
  // Transaction-level writes and reads, the event log and its live feed, generation jobs.
  { name: 'store', path: '^server/(store|channel|generation)/' },
  { name: 'db', path: '^server/db/' },
  // Pure rules and leaves everyone may use (secret-file.ts: a secret kept in a file, for config).
  { name: 'domain', path: '^server/(domain/|config\\.ts$|paths\\.ts$|log\\.ts$|errors\\.ts$|crash-points\\.ts$|secret-file\\.ts$)' },
];

const above = (i) => LAYERS.slice(0, i).map((l) => l.path);

module.exports = {
  forbidden: [
    ...LAYERS.slice(1).map((layer, k) => ({
      name: `layer-${layer.name}`,
      comment: `${layer.name} may not import a layer above it (${LAYERS.slice(0, k + 1).map((l) => l.name).join(', ')})`,
      severity: 'error',
      from: { path: layer.path },
      to: { path: above(k + 1) },
    })),
    {
      name: 'known-layer',
      comment: 'every server module belongs to a layer (add it to LAYERS)',
      severity: 'error',
      from: { path: '^server/', pathNot: [...LAYERS.map((l) => l.path), '^server/db/generated/'] },
      to: {},
    },
    {
      name: 'thin-graphql',
      comment: 'resolvers authorise, call a service and return: GraphQL reaches runtime, store and db only through services (Prisma model types excepted)',
      severity: 'error',
      from: { path: '^server/graphql/' },
      to: {
        path: '^server/(runtime|routing|store|channel|generation|db)/',
        pathNot: '^server/db/generated/',
      },
    },
    {
      name: 'thin-graphql-models',
      comment: 'GraphQL may use Prisma model types as backing types, never the client',
      severity: 'error',
      from: { path: '^server/graphql/' },
      to: { path: '^server/db/generated/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-cycles',
      comment: 'no import cycle, type-only imports included',
      severity: 'error',
      from: { path: '^server/' },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)node_modules/|^server/db/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
