/**
 * `npm run docs:architecture`: the diagram of docs/architecture.md, drawn from the code's real
 * imports (dependency-cruiser's, the same `npm run deps` checks) rather than by hand, so it cannot
 * drift: test/repo/architecture-diagram.test.ts fails when the committed one differs. Each folder is
 * a room, each arrow says that some file of one imports some file of the other. Arrows into the
 * leaves every layer uses (i18n, log, time, loop) are left out, and said so under the drawing.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** dist/harness/docs when compiled: the repository is two or three folders up. */
const REPO = ROOT.endsWith(`${path.sep}dist`) ? path.dirname(ROOT) : ROOT;
export const ARCHITECTURE_PAGE = path.join(REPO, 'docs', 'architecture.md');
const START = '<!-- The diagram below is written by `npm run docs:architecture` from the real imports. -->';
const END = '<!-- End of the written diagram. -->';

/** What each room is for, as the diagram labels it. */
const ROOMS: Readonly<Record<string, string>> = {
  commands: 'one file per slash command',
  'src/cli': 'the eventor-bot command line',
  'src/bot': 'composition root, router, first answers, Discord glue',
  'src/app': 'services: members, linking, login links, privacy, setup, feeds admin',
  'src/feeds': 'scheduler, kinds/ (one folder each), delivery/ (exactly once)',
  'src/club': "what services and feeds share: the club's Eventor access, area, entries, season",
  'src/render': 'pure: domain objects in, Discord payloads out',
  'src/charts': 'pure: split pictures as PNG, in a worker',
  'src/splits': 'pure split-time analysis',
  'src/season': "pure: a season's races, the cup scorings, the tables",
  'src/live': 'the LiveResultat client and the matching, no Discord',
  'src/store': 'SQLite or PostgreSQL behind the Store interfaces',
  'src/config': 'the configuration, checked',
  'src/eventor': 'client, operations, transport, readers, model',
  'harness/sandbox': 'loopback Eventor, Discord and LiveResultat',
  'harness/loopback': 'the real bot wired to the sandboxes',
  'harness/cli': "the command line's sandbox command",
  'harness/demo': 'npm run demo, docs:screens',
  'harness/bench': 'npm run bench',
  'harness/soak': 'npm run soak',
  'harness/docs': 'pages written from the code',
};
/** Used from every layer: drawn without their arrows. */
export const LEAVES = ['src/i18n', 'src/log', 'src/time', 'src/loop', 'src/text'];

interface CruiseResult {
  modules: Array<{ source: string; dependencies: Array<{ resolved: string; dependencyTypes: string[] }> }>;
}

/** The room of a file: `commands`, or `src/<folder>`, `harness/<folder>`; null for anything else. */
export function roomOf(file: string): string | null {
  const match = /^(commands|src\/[^/]+|harness\/[^/]+)\//.exec(file);
  return match ? match[1]! : null;
}

/** Every import between two rooms, as `from → to` pairs, from dependency-cruiser's own reading. */
export async function roomImports(): Promise<Array<[string, string]>> {
  // The package exports no path to its command; it is where npm puts it.
  const bin = path.join(REPO, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, 'src', 'commands', 'harness', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: REPO, maxBuffer: 256 * 1024 * 1024, timeout: 120_000 },
  );
  const result = JSON.parse(stdout) as CruiseResult;
  const pairs = new Set<string>();
  for (const module of result.modules) {
    const from = roomOf(module.source);
    if (from === null) continue;
    for (const dependency of module.dependencies) {
      const to = roomOf(dependency.resolved);
      if (to !== null && to !== from) pairs.add(`${from} ${to}`);
    }
  }
  return [...pairs].sort().map((pair) => pair.split(' ') as [string, string]);
}

/** A room's node id in the diagram. */
const nodeId = (room: string): string => room.replace(/[/-]/g, '_');

/** The diagram's Markdown: a mermaid flowchart of the rooms and their imports, and its legend. */
export function diagramOf(imports: ReadonlyArray<[string, string]>): string {
  const rooms = new Set(imports.flat());
  const lines = ['```mermaid', 'flowchart TD'];
  const drawn = [...rooms].filter((room) => !LEAVES.includes(room)).sort();
  for (const room of drawn) lines.push(`  ${nodeId(room)}["${room}/<br/>${ROOMS[room] ?? ''}"]`);
  lines.push(`  leaves["${LEAVES.map((leaf) => `${leaf}/`).join(' ')}<br/>leaves, used from every layer"]`);
  for (const [from, to] of imports) if (!LEAVES.includes(to)) lines.push(`  ${nodeId(from)} --> ${nodeId(to)}`);
  lines.push('```');
  lines.push('');
  lines.push(
    `Every arrow is at least one import; the arrows into the leaves are left out (${LEAVES.join(', ')}). Written by \`npm run docs:architecture\`, checked by \`test/repo/architecture-diagram.test.ts\`.`,
  );
  return lines.join('\n');
}

/** The page with its diagram replaced by `diagram`. */
export function withDiagram(page: string, diagram: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${ARCHITECTURE_PAGE} has no written diagram's markers`);
  return `${page.slice(0, start + START.length)}\n\n${diagram}\n\n${page.slice(end)}`;
}

/** The diagram the page holds now, between its markers. */
export function committedDiagram(page: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${ARCHITECTURE_PAGE} has no written diagram's markers`);
  return page.slice(start + START.length, end).trim();
}

async function main(): Promise<void> {
  const page = await readFile(ARCHITECTURE_PAGE, 'utf8');
  const next = withDiagram(page, diagramOf(await roomImports()));
  if (next !== page) await writeFile(ARCHITECTURE_PAGE, next);
  process.stdout.write(`${next === page ? 'unchanged' : 'wrote'} ${path.relative(REPO, ARCHITECTURE_PAGE)}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
