/**
 * The dependency rule of docs/architecture.md (its section "The dependency rule"), checked by `npm test` (`npm run deps`).
 * Arrows point down: commands → bot → app → (feeds, render, store, eventor); render → eventor's model.
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes the order of module initialisation matter and the rooms inseparable.',
      from: { path: '^(src|commands)/' },
      to: { circular: true },
    },
    {
      name: 'eventor-knows-nothing-above-it',
      severity: 'error',
      comment: 'The Eventor client is usable without Discord, the store or the bot (the CLI, other programs).',
      from: { path: '^src/eventor/' },
      to: {
        path: [
          '^src/(bot|app|feeds|render|store|sandbox|cli|demo|bench|soak|i18n)/',
          '^commands/',
          'node_modules/discord\\.js',
        ],
      },
    },
    {
      name: 'render-is-pure',
      severity: 'error',
      comment: 'Rendering turns domain objects into payloads; it reads no store and calls no Eventor or bot.',
      from: { path: '^src/render/' },
      to: {
        path: [
          '^src/(bot|app|feeds|store|sandbox|cli)/',
          '^commands/',
          '^src/eventor/(http|client)\\.ts$',
          '^src/live/(http|sources|client|tracker)\\.ts$',
        ],
      },
    },
    {
      name: 'live-knows-nothing-above-it',
      severity: 'error',
      comment:
        "The live-results client (docs/live-results.md) is usable without Discord, the store, the Eventor client or the bot (the CLI, the feeds later): besides its own folder it imports only the days-and-zones leaf (src/time/) and Eventor's model (src/eventor/model.ts, zod only), whose races and start lists the matching reads.",
      from: { path: '^src/live/' },
      to: {
        path: ['^(src|commands)/', 'node_modules/discord\\.js'],
        pathNot: ['^src/live/', '^src/time/', '^src/eventor/model\\.ts$'],
      },
    },
    {
      name: 'feeds-below-the-bot',
      severity: 'error',
      comment:
        'Automatic posts run without the interaction router (tick, the scheduler); what they share with commands lives below both.',
      from: { path: '^src/feeds/' },
      to: { path: ['^src/bot/', '^commands/'] },
    },
    {
      name: 'app-knows-no-discord',
      severity: 'error',
      comment:
        'Services hold the logic commands and feeds call; discord.js stays in src/bot, commands and feeds delivery.',
      from: { path: '^src/app/' },
      to: { path: ['^src/bot/', '^commands/', 'node_modules/discord\\.js'] },
    },
    {
      name: 'commands-do-not-import-each-other',
      severity: 'error',
      comment: 'What several commands share belongs in the services or src/bot, not in another command.',
      from: { path: '^commands/', pathNot: '^commands/index\\.ts$' },
      to: { path: '^commands/' },
    },
    {
      name: 'commands-reach-the-store-through-services',
      comment: 'Commands read and write what the bot keeps through ctx.services (src/app), never the store itself.',
      severity: 'error',
      from: { path: '^commands/' },
      to: { path: '^src/store/' },
    },
    {
      name: 'sandboxes-stand-alone',
      severity: 'error',
      comment:
        "The sandboxes (src/sandbox/eventor, src/sandbox/discord, src/sandbox/liveresultat) follow the real services, not our code: nothing in src/sandbox imports the product, with two narrow exceptions; the sandbox LiveResultat reads the sandbox Eventor's races from inside src/sandbox, never the live-results client (src/live), whose shapes it must not borrow. The model's records (src/eventor/model.ts, which imports only zod): the sandbox's data is typed by the shapes the client parses into, so a field the bot reads that the sandbox never fills is a compile error rather than a silent drift; a copy of those types would drift. And the days-and-zones leaf (src/time/), which imports nothing of ours: converting Swedish wall-clock times is the same arithmetic on both sides, and a second copy would only add a second place for a daylight-saving bug.",
      from: { path: '^src/sandbox/' },
      to: { path: '^(src|commands)/', pathNot: ['^src/sandbox/', '^src/eventor/model\\.ts$', '^src/time/'] },
    },
    {
      name: 'splits-analysis-is-pure',
      severity: 'error',
      comment:
        "The split-time analysis (docs/splits.md) reads only the model's record types: the CLI, the renderer and later the bot build on it, and it on nothing of theirs.",
      from: { path: '^src/splits/' },
      to: { path: '^(src|commands)/', pathNot: ['^src/splits/', '^src/eventor/model\\.ts$'] },
    },
    {
      name: 'season-is-pure',
      severity: 'error',
      comment:
        "The season's races, the cup scorings and the tables (docs/season.md) read only the model's records: the bot's services, the renderer, the standings post and the command line's `cup` build on it, and it on nothing of theirs.",
      from: { path: '^src/season/' },
      to: { path: '^(src|commands)/', pathNot: ['^src/season/', '^src/eventor/model\\.ts$'] },
    },
    {
      name: 'charts-draw-only-the-analysis',
      severity: 'error',
      comment:
        "The split-analysis pictures (docs/splits.md#pictures) take the analysis in and give PNG bytes and alt text out: they import the analysis (and at most the model's record types), nothing above; the words come from the caller. Eventor's text they show goes through the plain-text cleaning of the src/text leaf, as the messages' does.",
      from: { path: '^src/charts/' },
      to: { path: '^(src|commands)/', pathNot: ['^src/(charts|splits|text)/', '^src/eventor/model\\.ts$'] },
    },
    {
      name: 'loopback-world-is-for-demo-bench-and-tests',
      severity: 'error',
      comment:
        'src/loopback wires the real bot to the sandboxes (the demo, the bench, the soak and the end-to-end tests start it); the bot itself, the CLI and everything below never reach for it.',
      from: { path: '^(src|commands)/', pathNot: '^src/(loopback|demo|bench|soak)/' },
      to: { path: '^src/loopback/' },
    },
    {
      name: 'leaves-import-nothing-of-ours',
      severity: 'error',
      comment:
        'Leaves used from every layer: days and zones (src/time/, date-fns and @date-fns/tz; the sandboxes too), how work shares the event loop (src/loop/, the bot and the Eventor client alike) and the one plain-text cleaning of text from Eventor (src/text/, the renderers and the pictures alike). Each imports nothing of ours outside its own folder.',
      from: { path: '^src/(time|loop|text)/' },
      to: { path: '^(src|commands)/', pathNot: '^src/$1/' },
    },
    {
      name: 'database-drivers-stay-in-their-dialect',
      severity: 'error',
      comment:
        'Each database has its own folder under src/store (docs/decisions/store-dialects.md): better-sqlite3 only in src/store/sqlite/ (and the SQLite-only backup), pg only in src/store/postgres/. Everything else asks the Store interfaces, so it runs on either.',
      from: { path: '^(src|commands)/', pathNot: ['^src/store/sqlite/', '^src/store/backup\\.ts$'] },
      to: { path: 'node_modules/better-sqlite3' },
    },
    {
      name: 'pg-stays-in-its-dialect',
      severity: 'error',
      comment:
        'The PostgreSQL driver belongs to src/store/postgres/ alone, as better-sqlite3 to src/store/sqlite/; and to the throwaway server of the tests, the soak and the bench (src/loopback/postgres.ts), which checks it answers.',
      from: { path: '^(src|commands)/', pathNot: ['^src/store/postgres/', '^src/loopback/postgres\\.ts$'] },
      to: { path: ['node_modules/pg/', 'node_modules/pg-[a-z]+/'] },
    },
    {
      name: 'store-below-everything-but-eventor-model',
      severity: 'error',
      comment: 'The store is one module the rest calls; it calls nothing above it.',
      from: { path: '^src/store/' },
      to: {
        path: ['^src/(bot|app|feeds|render|sandbox|cli|demo|bench|soak)/', '^commands/', 'node_modules/discord\\.js'],
      },
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
