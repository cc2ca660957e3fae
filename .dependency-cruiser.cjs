/**
 * The architecture's import rules, checked by test/architecture.test.ts (and by hand with
 * `npx depcruise src`). docs/ARCHITECTURE.md says why each rule exists; change both together.
 */

/** Modules that take values and return values: no clock, network, disk or process. */
const PURE = [
  '^src/model\\.ts$',
  '^src/keys\\.ts$',
  '^src/lifecycle/',
  '^src/triage/',
  '^src/messages/',
  '^src/recovery/',
  '^src/delivery/(plan|burst-admission|preferences|notes)\\.ts$',
  '^src/cluster/(normalize|ownership)\\.ts$',
  '^src/maintenance/(plan|window|expand|series|span|timezones|parse|feed-text|skip-ahead)\\.ts$',
];

/** Packages and Node modules that reach the disk, the network or other processes. */
const IO_MODULES = [
  '^(node:)?(fs|fs/promises|http|https|http2|net|tls|dgram|dns|child_process|worker_threads|cluster)$',
  // Resolved (node_modules/…) or not (a bare name: not installed yet, such as pg).
  '(^|node_modules/)(better-sqlite3|pg|pg-pool|@kubernetes/client-node|@slack/bolt|@slack/web-api|@slack/socket-mode|undici|ws)(/|$)',
];

/** The parts of the bot that do I/O or hold state: a pure module may not import them. */
const ADAPTERS = '^src/(store|slack|ops|notify|archive|commands|check|demo|sim)/|^src/cluster/(reader|watcher|kinds|request-signal)\\.ts$|^src/(app|cli|config)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Two folders must not import each other, directly or through others: the layers would no longer stack.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-module-cycles',
      comment: 'A module must not import itself back through others at run time (ESM would see it half-initialised). A cycle made only of type imports is erased by the compiler and allowed.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'pure-imports-no-io',
      comment: 'Pure modules take values and return values; I/O belongs to the adapters.',
      severity: 'error',
      from: { path: PURE },
      to: { path: IO_MODULES },
    },
    {
      name: 'pure-imports-no-adapters',
      comment: 'Pure modules must not reach I/O through an adapter or a stateful loop either.',
      severity: 'error',
      from: { path: PURE },
      to: { path: ADAPTERS },
    },
    {
      name: 'production-not-on-demo-or-sim',
      comment: '`start` never loads the simulators or the demo; the Docker image does not even ship them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(demo|sim)/' },
      to: { path: '^src/(demo|sim)/', dependencyTypesNot: ['dynamic-import'] },
    },
    {
      name: 'demo-loaded-only-by-the-demo-command',
      comment: 'The one way into the demo and the simulators from production code is the import() in the demo command.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(demo|sim)/|^src/commands/demo\\.ts$' },
      to: { path: '^src/(demo|sim)/', dependencyTypes: ['dynamic-import'] },
    },
  ],
  options: {
    // Type-only imports count: a cycle through types is still two folders that know each other.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    moduleSystems: ['es6', 'cjs'],
  },
};
