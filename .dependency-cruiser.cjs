/**
 * The dependency rule of docs/architecture.md (its section "The dependency rule"), checked by `npm test`
 * (`npm run deps`). It is complete: `LAYERS` lists, for every folder, every folder it may import, and
 * an import that no entry allows is an error. The table points one way (each folder imports only
 * folders below it in the list), so no two folders can import each other through any path; the
 * architecture page's diagram is drawn from the real imports (`npm run docs:architecture`) and a
 * test fails when the two disagree. The forbidden rules below refine what a folder may take of
 * another (only the model, only in the composition root) and where libraries may be used.
 * @type {import('dependency-cruiser').IConfiguration}
 */

/** Product folders, top to bottom; each may import only folders that come after it in this list. */
const LAYERS = {
  'src/cli': [
    'commands',
    'src/bot',
    'src/app',
    'src/config',
    'src/store',
    'src/splits',
    'src/eventor',
    'src/i18n',
    'src/log',
    'src/time',
    'src/live',
    'src/season',
  ],
  commands: [
    'src/bot',
    'src/app',
    'src/feeds',
    'src/club',
    'src/render',
    'src/season',
    'src/charts',
    'src/eventor',
    'src/i18n',
    'src/log',
    'src/time',
    'src/text',
  ],
  'src/bot': [
    'src/app',
    'src/feeds',
    'src/club',
    'src/render',
    'src/splits',
    'src/store',
    'src/config',
    'src/live',
    'src/eventor',
    'src/i18n',
    'src/log',
    'src/loop',
    'src/time',
    'src/text',
  ],
  'src/app': [
    'src/feeds',
    'src/club',
    'src/render',
    'src/charts',
    'src/splits',
    'src/store',
    'src/config',
    'src/live',
    'src/eventor',
    'src/i18n',
    'src/log',
    'src/loop',
    'src/time',
    'src/text',
    'src/season',
  ],
  'src/feeds': [
    'src/club',
    'src/render',
    'src/charts',
    'src/splits',
    'src/store',
    'src/config',
    'src/live',
    'src/eventor',
    'src/i18n',
    'src/log',
    'src/loop',
    'src/time',
    'src/season',
  ],
  'src/club': [
    'src/render',
    'src/season',
    'src/store',
    'src/config',
    'src/eventor',
    'src/i18n',
    'src/log',
    'src/time',
    'src/text',
  ],
  'src/render': [
    'src/season',
    'src/splits',
    'src/live',
    'src/eventor',
    'src/i18n',
    'src/text',
    'src/time',
    'src/charts',
  ],
  'src/charts': ['src/season', 'src/splits', 'src/eventor', 'src/loop', 'src/text'],
  'src/season': ['src/eventor'],
  'src/splits': ['src/eventor'],
  'src/live': ['src/eventor', 'src/time'],
  'src/store': ['src/eventor'],
  'src/config': ['src/eventor', 'src/time', 'src/store', 'src/live'],
  'src/eventor': ['src/loop', 'src/time'],
  'src/i18n': [],
  'src/text': [],
  'src/log': [],
  'src/loop': [],
  'src/time': [],
};

/**
 * The harness beside the product (docs/decisions/harness.md): the sandboxes import only the model's
 * records and the days-and-zones leaf; the rest drives the real product and may import any of it.
 */
const PRODUCT = ['commands', ...Object.keys(LAYERS).filter((folder) => folder !== 'commands')];
const HARNESS = {
  'harness/cli': ['harness/sandbox', ...PRODUCT],
  'harness/demo': ['harness/loopback', 'harness/sandbox', ...PRODUCT],
  'harness/bench': ['harness/loopback', 'harness/sandbox', ...PRODUCT],
  'harness/soak': ['harness/loopback', 'harness/sandbox', ...PRODUCT],
  'harness/loopback': ['harness/sandbox', ...PRODUCT],
  'harness/sandbox': ['src/eventor', 'src/time'],
  // The pages written from the code: the command definitions and kinds (docs:commands), and the
  // real bot's answers in the loopback world, with the demo's cast and facts (docs:samples).
  'harness/docs': ['harness/demo', 'harness/loopback', 'harness/sandbox', ...PRODUCT],
};

const escape = (folder) => folder.replace(/[/.]/g, '\\$&');
const allowedFolders = { ...LAYERS, ...HARNESS };

module.exports = {
  allowed: [
    // Node's own modules and the packages in package.json (where each may be used: the rules below).
    { from: {}, to: { dependencyTypes: ['core', 'npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-bundled'] } },
    // The bench measures our XML tree against txml's, whose subpath export the resolver cannot read.
    { from: { path: '^harness/bench/' }, to: { path: '^txml/txml$', couldNotResolve: true } },
    // Within a folder.
    { from: { path: '^(commands|src/[^/]+|harness/[^/]+)/' }, to: { path: '^$1/' } },
    ...Object.entries(allowedFolders)
      .filter(([, below]) => below.length > 0)
      .map(([folder, below]) => ({
        from: { path: `^${escape(folder)}/` },
        to: { path: `^(${below.map(escape).join('|')})/` },
      })),
  ],
  allowedSeverity: 'error',
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes the order of module initialisation matter and the rooms inseparable.',
      from: { path: '^(src|commands|harness)/' },
      to: { circular: true },
    },
    {
      name: 'eventor-knows-no-discord',
      severity: 'error',
      comment: 'The Eventor client is usable without Discord, the store or the bot (the CLI, other programs).',
      from: { path: '^src/eventor/' },
      to: { path: 'node_modules/discord\\.js' },
    },
    {
      name: 'render-is-pure',
      severity: 'error',
      comment: 'Rendering turns domain objects into payloads; it calls no Eventor: the transport and client stay out.',
      from: { path: '^src/render/' },
      to: { path: '^src/eventor/(http|client)\\.ts$' },
    },
    {
      name: 'services-know-no-discord',
      severity: 'error',
      comment:
        'Services (src/app) and what services and feeds share (src/club) hold the logic; discord.js stays in src/bot, commands and the feeds that post.',
      from: { path: '^src/(app|club)/' },
      to: { path: 'node_modules/discord\\.js' },
    },
    {
      name: 'commands-do-not-import-each-other',
      severity: 'error',
      comment: 'What several commands share belongs in the services or src/bot, not in another command.',
      from: { path: '^commands/', pathNot: '^commands/index\\.ts$' },
      to: { path: '^commands/' },
    },
    {
      name: 'the-bot-reaches-the-store-through-services',
      severity: 'error',
      comment:
        'Commands and the bot read and write what the bot keeps through the services; only the composition root (src/bot/compose.ts) opens the store.',
      from: { path: '^(commands|src/bot)/', pathNot: '^src/bot/compose\\.ts$' },
      to: { path: '^src/store/' },
    },
    {
      name: 'sandboxes-stand-alone',
      severity: 'error',
      comment:
        "The sandboxes (Eventor, Discord, LiveResultat) follow the real services, not our code: nothing in harness/sandbox imports the product, with two narrow exceptions; the sandbox LiveResultat reads the sandbox Eventor's races from inside harness/sandbox, never the live-results client (src/live), whose shapes it must not borrow. The model's records (src/eventor/model.ts, which imports only zod): the sandbox's data is typed by the shapes the client parses into, so a field the bot reads that the sandbox never fills is a compile error rather than a silent drift; a copy of those types would drift. And the days-and-zones leaf (src/time/), which imports nothing of ours: converting Swedish wall-clock times is the same arithmetic on both sides, and a second copy would only add a second place for a daylight-saving bug.",
      from: { path: '^harness/sandbox/' },
      to: { path: '^src/', pathNot: ['^src/eventor/model\\.ts$', '^src/time/'] },
    },
    {
      name: 'splits-analysis-is-pure',
      severity: 'error',
      comment:
        "The split-time analysis (docs/splits.md) reads only the model's record types: the CLI, the renderer and the bot build on it, and it on nothing of theirs.",
      from: { path: '^src/splits/' },
      to: { path: '^src/eventor/', pathNot: '^src/eventor/model\\.ts$' },
    },
    {
      name: 'season-is-pure',
      severity: 'error',
      comment:
        "The season's races, the cup scorings and the tables (docs/season.md) read only the model's records: the bot's services, the renderer, the standings post and the command line's `cup` build on it, and it on nothing of theirs.",
      from: { path: '^src/season/' },
      to: { path: '^src/eventor/', pathNot: '^src/eventor/model\\.ts$' },
    },
    {
      name: 'live-knows-nothing-above-it',
      severity: 'error',
      comment:
        "The live-results client (docs/live-results.md) is usable without Discord, the store, the Eventor client or the bot (the CLI, the feeds): besides its own folder it imports only the days-and-zones leaf and Eventor's model, whose races and start lists the matching reads.",
      from: { path: '^src/live/' },
      to: { path: ['^src/eventor/', 'node_modules/discord\\.js'], pathNot: '^src/eventor/model\\.ts$' },
    },
    {
      name: 'render-calls-no-live-source',
      severity: 'error',
      comment: "Rendering reads the live results' model; the sources that fetch it stay out.",
      from: { path: '^src/render/' },
      to: { path: '^src/live/(http|sources|client|tracker)\\.ts$' },
    },
    {
      name: 'charts-draw-only-the-analysis',
      severity: 'error',
      comment:
        "The split-analysis pictures (docs/splits.md#pictures) take the analysis in and give PNG bytes and alt text out: they import the analysis and at most the model's record types; the words come from the caller.",
      from: { path: '^src/charts/' },
      to: { path: '^src/eventor/', pathNot: '^src/eventor/model\\.ts$' },
    },
    {
      name: 'store-reads-only-the-model',
      severity: 'error',
      comment: 'The store keeps rows; of the Eventor client it may know only the model, never the transport.',
      from: { path: '^src/store/' },
      to: { path: '^src/eventor/', pathNot: '^src/eventor/model\\.ts$' },
    },
    {
      name: 'database-drivers-stay-in-their-dialect',
      severity: 'error',
      comment:
        'Each database has its own folder under src/store (docs/decisions/store-dialects.md): better-sqlite3 only in src/store/sqlite/ (and the SQLite-only backup), pg only in src/store/postgres/ and the throwaway server of the tests, soak and bench (harness/loopback/postgres.ts), which checks it answers. Everything else asks the Store interfaces, so it runs on either.',
      from: {
        path: '^(src|commands|harness)/',
        pathNot: ['^src/store/sqlite/', '^src/store/backup\\.ts$'],
      },
      to: { path: 'node_modules/better-sqlite3' },
    },
    {
      name: 'pg-stays-in-its-dialect',
      severity: 'error',
      comment:
        'See database-drivers-stay-in-their-dialect: pg belongs to src/store/postgres/ and the throwaway server.',
      from: { path: '^(src|commands|harness)/', pathNot: ['^src/store/postgres/', '^harness/loopback/postgres\\.ts$'] },
      to: { path: ['node_modules/pg/', 'node_modules/pg-[a-z]+/'] },
    },
    {
      name: 'charts-library-stays-in-the-charts',
      severity: 'error',
      comment: 'Chart.js and the canvas draw in the chart worker only (docs/decisions/chart-worker.md).',
      from: { path: '^(src|commands)/', pathNot: '^src/charts/' },
      to: { path: ['node_modules/chart\\.js/', 'node_modules/@napi-rs/canvas/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^node_modules/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
// Read by the diagram's generator and its test (scripts of docs/architecture.md), not by depcruise.
Object.defineProperty(module.exports, 'layers', { value: { LAYERS, HARNESS }, enumerable: false });
