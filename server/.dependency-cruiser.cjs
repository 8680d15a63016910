/**
 * Module boundaries of the server, checked by `npm run lint` (dependency-cruiser).
 *
 * A feature module's public files are <n>.module.ts, its *.service.ts and *.repository.ts, its dto/ folder and its
 * *.constants.ts (enumerations such as LICENSE_STATUSES that DTOs elsewhere validate against). Everything else in
 * a module (entities, helpers, controllers) is internal; what others need of it is re-exported by a public file,
 * e.g. licenses.service.ts re-exports the LicenseEntity type and normalizeLicenseKey. Modules tell each other of
 * changes through the events in common/events.ts.
 *
 * Allowed exceptions, each with its reason:
 * - entity → another module's entity: a TypeORM relation mirrors a foreign key (entity-relations below).
 * - storage: the file-storage infrastructure (no table, no rules of its own); its interface (FileStorage), upload
 *   interceptor, streamed sending and file-name rules are what the modules that keep files are built on.
 * - database/entities.ts (the entity registry) and database/migrations/ know every module's tables.
 */
const PUBLIC_FILES = [
  '^src/modules/[^/]+/[^/]+\\.(module|service|repository|constants)\\.ts$',
  '^src/modules/[^/]+/dto/',
  '^src/modules/storage/',
];

/**
 * What reaches the database: TypeORM, the driver-level helpers of database/ (prepared statements, reads off the event
 * loop, batching, driver error codes) and transactions' managers. Only repositories and database/ itself use them;
 * services hold the rules and call repositories, and hand a transaction on as database/transactions.ts's Transaction.
 */
const DATABASE_ACCESS = [
  '(^|/)node_modules/(typeorm|@nestjs/typeorm|mysql2|better-sqlite3)/',
  '^src/database/(prepared-sql|off-loop-reads|pages|driver-errors|transaction-manager)\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-internals',
      severity: 'error',
      comment: 'A module imports another module only through its public files (see the top of .dependency-cruiser.cjs).',
      from: { path: '^src/modules/([^/]+)/', pathNot: '\\.entity\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', ...PUBLIC_FILES] },
    },
    {
      name: 'entity-relations',
      severity: 'error',
      comment: "An entity may name another module's entity (a relation mirrors a foreign key), else only its public files.",
      from: { path: '^src/modules/([^/]+)/[^/]+\\.entity\\.ts$' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '\\.entity\\.ts$', ...PUBLIC_FILES] },
    },
    {
      name: 'infrastructure-knows-no-feature',
      severity: 'error',
      comment: 'common/ and database/ serve every module and import none (the entity registry and migrations excepted).',
      from: { path: '^src/(common|database)/', pathNot: ['^src/database/entities\\.ts$', '^src/database/migrations/'] },
      to: { path: '^src/modules/' },
    },
    {
      name: 'sql-in-repositories',
      severity: 'error',
      comment:
        'Only *.repository.ts files (and database/) reach the database. Entities describe tables with TypeORM decorators, ' +
        '*.module.ts files register them (TypeOrmModule.forFeature), and the exception filter turns a driver error that ' +
        'escapes a repository into its 4xx/503.',
      from: {
        path: '^src/(modules|common)/',
        pathNot: ['\\.(repository|entity|module|spec)\\.ts$', '^src/common/all-exceptions\\.filter\\.ts$'],
      },
      to: { path: DATABASE_ACCESS },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files import each other in one direction only (type-only imports aside: they vanish at runtime).',
      from: { path: '^src/' },
      to: { circular: true, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular-modules',
      severity: 'error',
      scope: 'folder',
      comment: 'Modules depend on each other in one direction only; a reaction the other way goes through an event.',
      from: { path: '^src/modules/[^/]+' },
      to: { circular: true },
    },
  ],
  options: {
    // The entity registry and the migrations know every module's tables by design; leaving them out of the graph
    // keeps them from closing every module into a cycle through database/.
    exclude: { path: '^src/database/(entities\\.ts|migrations/)' },
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
