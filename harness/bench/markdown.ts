/**
 * `npm run bench -- --markdown`: the run's figures as docs/benchmarks.md. A table (figure, what it
 * measures in a few words, target, this run's value), then each figure's full description, then
 * what the figures say. Each figure's words come with the figure (`title`, `about` in
 * `figure.ts`); only the closing prose is written here. Rows stay within MAX_ROW columns, and the
 * table is laid out as Prettier lays out Markdown tables, so `npm run lint` leaves the file as written.
 */
import { type BenchFigure, meetsTarget } from './figure.js';

/** Where the table's rows end at the latest, padding included. */
export const MAX_ROW = 160;

export interface BenchRunSummary {
  figures: readonly BenchFigure[];
  /** When the run started. */
  startedAt: Date;
  wallSeconds: number;
  /** Peak resident memory of the bench's own process (its children are counted in their own figures' lines). */
  peakRssMb: number;
  quick: boolean;
  /** The host's 1-minute load average when the run started and when it ended: how busy the machine was. */
  loadAverage: { start: number; end: number };
  /** The sections that ran (all of them unless `--only` or `--short` said otherwise), with their time. */
  sections: ReadonlyArray<{ name: string; seconds: number; long?: string }>;
}

export interface Machine {
  cores: number;
  node: string;
  /** The processor's model name, where the system gives one. */
  cpu?: string;
}

/** The Markdown of docs/benchmarks.md for one run. */
export function benchMarkdown(run: BenchRunSummary, machine: Machine): string {
  const within = run.figures.filter((f) => f.target !== undefined && meetsTarget(f)).length;
  const targeted = run.figures.filter((f) => f.target !== undefined).length;
  const missed = run.figures.filter((f) => !meetsTarget(f)).map((f) => `\`${f.name}\``);
  const lines = [
    '# Benchmarks',
    '',
    '<!-- Written by `npm run bench -- --markdown` (harness/bench/markdown.ts); run it again rather than editing. -->',
    '',
    '```',
    'npm run bench                     # every section',
    'npm run bench -- --short          # every section but the long ones (named below)',
    'npm run bench -- --quick          # a CI-sized run of every section: the same figures on less work',
    'npm run bench -- --only parse     # one or more sections (parse, requests, processes, interactions, startup, charts, analysis, next, season)',
    'npm run bench -- --markdown       # and write this file from the run',
    '```',
    '',
    'Each figure is one line, `BENCH <name> <value> <unit> target <op> <target>` (without a target when it is',
    'information only), measured side by side with what it is compared to in the same run; `#` lines say what was',
    'measured and how. The run ends with its own time, CPU and peak memory, and exits with 1 when a figure misses its',
    'target. The sections are files in `harness/bench/` (`section.ts` is their contract): heavy work runs in child',
    'processes one at a time, and CPU time is used where wall time would mostly be other work on a shared machine.',
    'The figures in milliseconds and seconds are wall time all the same (what a member waits): on a busy host (a load',
    "average above the cores) they run long, and this run's load average is given with it.",
    '',
    `This run: ${runDate(run.startedAt)}${run.quick ? ' (`--quick`)' : ''}, ${sectionsText(run.sections)}; ${duration(run.wallSeconds)} wall${longText(run.sections)}, peak RSS of the bench process ${run.peakRssMb.toFixed(0)} MB; ${machineText(machine)}, load average ${run.loadAverage.start.toFixed(1)} at the start and ${run.loadAverage.end.toFixed(1)} at the end. ${within} of ${targeted} figures within target${missed.length > 0 ? ` (missed: ${missed.join(', ')})` : ''}.`,
    '',
    ...table(run.figures),
    '',
    '## The figures',
    '',
    ...run.figures.map((f) => `- \`${f.name}\`: ${f.about ?? f.title ?? ''}`.trimEnd()),
    '',
    '## What the figures say',
    '',
    ...WHAT_THE_FIGURES_SAY,
  ];
  return `${lines.join('\n')}\n`;
}

function table(figures: readonly BenchFigure[]): string[] {
  const rows = [
    ['Figure', 'What it measures', 'Target', 'This run'],
    ...figures.map((f) => [
      `\`${f.name}\``,
      escapeCell(f.title ?? ''),
      f.op === undefined || f.target === undefined
        ? 'none'
        : `${f.op === '<=' ? '≤' : '≥'} ${number(f.target)}${unitText(f.unit)}`,
      `${number(f.value)}${unitText(f.unit)}${meetsTarget(f) ? '' : ' (missed)'}`,
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(3, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(rows[0]!), line(widths.map((w) => '-'.repeat(w))), ...rows.slice(1).map(line)];
}

/** A cell's text: a pipe would end the cell. */
function escapeCell(text: string): string {
  return text.replaceAll('|', '\\|');
}

/** Two or three significant digits under 10, one decimal above (1.03, 0.036, 23.1, 205.5). */
function number(value: number): string {
  const size = Math.abs(value);
  const rounded = Number(value.toFixed(size >= 10 ? 1 : size >= 1 ? 2 : 3));
  return rounded === 0 ? '0' : String(rounded).replace('-', '−');
}

function unitText(unit: string): string {
  return unit === 'x' || unit === 'x-document' ? '×' : ` ${unit}`;
}

function runDate(date: Date): string {
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function duration(seconds: number): string {
  const whole = Math.round(seconds);
  return whole < 60 ? `${whole} s` : `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

function sectionsText(sections: BenchRunSummary['sections']): string {
  const each = sections.map((s) => `${s.name} ${duration(s.seconds)}`);
  return sections.length === 1 ? `section ${each[0]}` : `sections ${each.join(', ')}`;
}

/** The long sections by name and why, and what the others took together. */
function longText(sections: BenchRunSummary['sections']): string {
  const long = sections.filter((s) => s.long !== undefined);
  if (long.length === 0) return '';
  const rest = sections.filter((s) => s.long === undefined).reduce((sum, s) => sum + s.seconds, 0);
  const named = long.map((s) => `${s.name} (${s.long})`).join('; ');
  return ` (long sections: ${named}; the others ${duration(rest)} together)`;
}

function machineText(machine: Machine): string {
  return `${machine.cores} cores${machine.cpu ? ` (${machine.cpu})` : ''}, Node ${machine.node}`;
}

/** The closing prose: what the figures say and what is left, as of the figures' current definitions. */
const WHAT_THE_FIGURES_SAY: readonly string[] = [
  "- **Parsing.** The native reader builds fast-xml-parser's object tree with its own one-pass reader",
  '  (the library reads what it leaves, such as DOCTYPEs and CDATA), so it beats both bare parsers. A',
  '  document of 2,000,000 bytes or more is parsed in a worker thread; its bytes are moved there',
  '  undecoded, and the model comes back in pieces of 100 runners, each as its serialized bytes, moved',
  '  too. The main thread reads one piece per turn of its event loop and freezes it; a message port',
  '  hands over every message that has arrived in one go, so pieces sent as plain messages were copied',
  '  in all at once (150 ms for the 22 MB list, now about 20 ms).',
  "- **Requests.** Within one scheduler run a club's feeds share one entries request",
  '  (`src/feeds/club-share.ts`), and the events the results and start-list runs look at are kept for',
  '  the hour; the race day went from 47.1 to 23.1 requests an hour with the same posts at the same',
  "  times (`test/e2e/feeds-race-day.test.ts` compares the demo weekend's transcript). The `#` lines list",
  '  the requests by path.',
  "- **Answers.** Interaction answers go through a REST path outside discord.js's global 50-a-second",
  '  bucket (Discord does not count them either; the sandbox Discord enforces that limit for the rest),',
  '  and per-token rate-limit handlers no longer pile up. An interaction alone in its turn of the event',
  '  loop that has its answer without waiting gets it as its first response. Interactions that arrive',
  '  together (a burst) are all acknowledged first, and their handlers then render one per later turn,',
  '  in the order they came, so an interaction arriving meanwhile is acknowledged before the next answer',
  '  is rendered; and none is rendered while deferrals are on their way to Discord, whose edits would',
  '  queue beside them (`src/bot/first-answer.ts`). The bot spends about 1.6 ms of CPU per warm',
  '  interaction, the sandboxes about 0.6 to 0.9 ms, depending on how busy the host machine is. The',
  "  cold figure varies most between runs (a round's p99 is one busy moment; single cold rounds from 64",
  '  to 160 ms were seen within one hour), hence the median of three fresh bots. Part of what a fresh',
  "  bot's first round cost was not the bot's: it opens a connection for each deferral of its burst",
  "  (99 in a round of 100), and the sandbox Discord that accepts them is code of the bench's own",
  "  process, not yet compiled until it has taken a few such bursts; and a process's",
  "  first second after READY still keeps its compiler's and collector's threads busy (30 to 70 ms of",
  '  CPU). Measured at once, on a sandbox not yet warm, the figure had risen to 134-139 ms while the',
  "  bot's own work before its last acknowledgement had not grown: fresh bots of the code of three",
  '  weeks before and of now, taking turns (30 each), used a median 185 and 150 ms of CPU up to their',
  '  last acknowledgement, with p99 medians of 140 and 152 ms; nothing of the digest, the calendar,',
  '  `/next`, the reminders or the PostgreSQL store runs or loads before a cold `/events` is',
  "  acknowledged. So five fresh bots' rounds warm the sandbox first, not measured, and each cold round",
  '  starts a second after its bot is ready, its caches still empty and its code not optimised: on the',
  '  same host the p99 median of fresh bots went from 120 to 99 ms with the warm-up alone.',
  '- **Start-up.** Key derivation runs off the path to READY, date-fns and fast-xml-parser load only',
  '  what is used. A query is measured against its floor, `query-cli-ratio-over-floor`: a bare node',
  '  that loads undici and zod, which every query needs (the Eventor client and its validation), and',
  '  which no query can go below. Against a bare `node -e 0` (`query-cli-ratio`, information only) a',
  '  query cannot reach the old target of 3: a bare `node -e 0` takes about 20-30 ms of CPU, a bare',
  '  process that does nothing but load undici about 105-135 ms (5×), one that loads zod 80-115 ms (4×).',
  '  Over the floor a query was at about 2.2×. What took it to about 1.3-1.5× (alternating runs on a',
  "  shared machine, a busy one up to 1.9×): the CLI keeps undici's WebAssembly HTTP parser at V8's",
  '  baseline code (`src/cli/query.ts`; V8 otherwise recompiled it after the first answer, about 35 MB',
  "  and a sixth of a bare request's process CPU); each operation's zod schema and each model record's",
  "  are built on first use, not on import; each operation loads its parser's module with its first",
  "  answer, so a query for the key's organisation loads neither the IOF reader nor the start and",
  '  result lists; the parse worker loads with the first large answer; and @date-fns/tz is imported',
  "  one function at a time. A query for the key's organisation now loads 22 modules of ours",
  '  (`test/cli/module-loading.test.ts` names them). What is left over the floor is spread thin: the',
  '  request itself (a bare undici request costs about 1.2× the floor), loading those modules, a',
  "  full garbage collection the floor's shorter life does not reach, and zod building the schemas a",
  '  query uses. A bundle of the `query` path with a V8 code cache was measured at about 8× a bare',
  '  node, at the price of a bundler and a build step, and is not in the product.',
  '- **Pictures.** A splits graph costs about 60 to 100 ms of CPU, most of it Chart.js on whichever',
  '  thread draws it. The bot draws in one worker thread (`src/charts/draw.ts`,',
  '  `docs/decisions/chart-worker.md`), so `chart-render-p95` is the wall time of a `drawPicture`',
  '  call, what a member waits for a picture, and the CPU time of the same calls is beside it for',
  '  information: on a busy host the wall time also counts the queue for a core, the CPU time does',
  "  not. `ack-while-charts-render` measures what the drawing would take from members' answers; its",
  '  `#` lines give the same rounds with the graphs drawn on the event loop (a round meeting a picture',
  '  waits for all of it) and with none drawn (what the machine gives at the moment).',
  '- **Large lists.** The split analysis runs on the event loop, which holds the result list: it is',
  '  n log n (one sort per leg, where a search of the sorted times once per runner made it n²), written',
  '  as steps run in slices of about 4 ms, and each place analyses only the classes it shows, at most',
  '  5,000 runners a class (`docs/splits.md#how-long-it-takes`, `#limits`). The pictures get only the',
  '  runners they draw. `ack-p99-during-large-analysis` is what members feel while the bot analyses',
  '  100,000 runners as `/results` with splits does, `ack-p99-during-thread-pictures` while it makes and',
  "  draws a results thread of 3,000 club runners; the `#` lines give the rounds' p99s with nothing else",
  '  to do, for scale. Before, a 100,000-runner class held the event loop for 8 to 14 s, and a thread of',
  '  2,000 club runners over 300 controls took 69 s for its words alone.',
  '- **Race day, live.** One poller per competition asks LiveResultat for every server that follows it,',
  '  so a hundred servers of three clubs cost the requests of three. A turn over a hundred boards reads',
  "  each server's rows from a store that answers synchronously: it runs in slices of 1 ms, lets the",
  "  event loop poll before it starts, and waits between two steps while a member's first answer is",
  '  unsent, 250 ms at most before its next slice runs anyway, so a stream of interactions slows the',
  '  boards but never stops them (`src/loop/slices.ts`, `src/bot/first-answer.ts`). The bot runs in a',
  "  worker thread of its own and the sandboxes on the bench's thread (`harness/bench/live-bot.ts`): in",
  "  one event loop with them, the sandbox Discord's serving of a hundred edits and their gateway frames",
  "  competed with the member's answer, as they never do in production. So measured, over 45 minutes of",
  "  a race and 100 servers, a member's acknowledgement before the change took 23.3 ms (p95) while",
  '  boards were edited, 8.1 ms between turns (medians 7.1 and 3.5 ms); after it 9.6 and 6.8 ms',
  "  (medians 2.8 and 2.8 ms). Each turn of the loop an acknowledgement needs (the gateway's frame, the",
  "  handler, the callback) had waited for a slice of the turn, and a turn began with the store's reads",
  '  of every row in one go. On a busy host both figures grow together (a run at load average 7.3 gave',
  '  20.5 against 14.1 ms); `--only live` alone on a quiet one gave 4.0 against 4.6 ms.',
];
