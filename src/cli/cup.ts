/**
 * `eventor-bot cup <result files...> --club NAME-OR-ID --scoring winner-ratio|place [--best N]
 * [--json]`: a club cup over result list files (IOF XML 3.0 or Eventor's native lists), scored as
 * docs/season.md defines it. Each file is one race, each race of a multi-race file apart; a runner
 * is the same person in two files when their name ("Given Family") is the same.
 *
 * The JSON shape is fixed: {"scoring","best","races":[{"file","event","race","date"}],
 * "standings":[{"rank","name","points","races","counted":[{"race","points"}]}]}, `race` in
 * `counted` the index into `races`.
 */
import { EventorError, InvalidResponse } from '../eventor/errors.js';
import type { PersonResult, ResultList } from '../eventor/model.js';
import { parseXmlFile } from '../eventor/parse-file.js';
import { seasonRaces, type SeasonRace } from '../season/races.js';
import { isScoring, SCORINGS, scoreRaces, type Scoring, standings } from '../season/scoring.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, takeString, UsageError } from './args.js';
import { type Io, readInputFile } from './io.js';

const READS = 'an IOF XML 3.0 ResultList or an Eventor native ResultList';

/** One race of the cup as the JSON names it. */
export interface CupRace {
  file: string;
  event: string | null;
  /** The race's number in its file (1 for a single race). */
  race: number;
  /** YYYY-MM-DD as the file gives the race's day (UTC when the file gives a zone), or null. */
  date: string | null;
}

/** What `--json` prints. */
export interface CupJson {
  scoring: Scoring;
  best: number | null;
  races: CupRace[];
  standings: Array<{
    rank: number;
    name: string;
    points: number;
    races: number;
    counted: Array<{ race: number; points: number }>;
  }>;
}

/** Names compared as a person reads them: case and surrounding spaces aside. */
const sameText = (a: string, b: string): boolean =>
  a.trim().replace(/\s+/g, ' ').toLowerCase() === b.trim().replace(/\s+/g, ' ').toLowerCase();

/** Whether a runner is of the club the option names: its id, name or short name. */
function ofClub(club: string): (person: Pick<PersonResult, 'organisation'>) => boolean {
  return ({ organisation }) =>
    organisation !== null &&
    (organisation.id === club.trim() ||
      (organisation.name !== null && sameText(organisation.name, club)) ||
      (organisation.shortName !== null && sameText(organisation.shortName, club)));
}

function parseBest(text: string | undefined): number | null {
  if (text === undefined) return null;
  if (!/^\d{1,4}$/.test(text.trim()) || Number(text) < 1)
    throw new UsageError(`--best takes a whole number of races, 1 or more (not '${text}')`);
  return Number(text);
}

/** The clubs a set of lists names, for the message when none is the one asked for. */
function clubsIn(lists: readonly ResultList[]): string[] {
  const names = new Set<string>();
  for (const list of lists)
    for (const cls of list.classes)
      for (const p of cls.persons) {
        const org = p.organisation;
        if (org?.name) names.add(org.id ? `${org.name} (${org.id})` : org.name);
      }
  return [...names].sort();
}

function dateOf(race: SeasonRace): string | null {
  return race.date !== null && /^\d{4}-\d{2}-\d{2}/.test(race.date) ? race.date.slice(0, 10) : null;
}

/** Reads one file as a result list; null after one line on stderr saying why it cannot be. */
async function readList(file: string, io: Pick<Io, 'err'>): Promise<ResultList | null> {
  const bytes = await readInputFile('cup', file, io);
  if (bytes === null) return null;
  try {
    const parsed = parseXmlFile(bytes);
    if (parsed.root !== 'ResultList') {
      io.err(`eventor-bot cup: '${file}' is a ${parsed.root}; cup reads ${READS}, one race per file\n`);
      return null;
    }
    return parsed.data as ResultList;
  } catch (error) {
    if (!(error instanceof EventorError)) throw error;
    const problem =
      error instanceof InvalidResponse ? `${error.problem}${error.path ? ` at ${error.path}` : ''}` : error.message;
    io.err(`eventor-bot cup: '${file}' cannot be read: ${problem}. cup reads ${READS}\n`);
    return null;
  }
}

export async function runCup(args: ParsedArgs, io: Pick<Io, 'out' | 'err'>): Promise<number> {
  const files = args.positionals;
  if (files.length === 0)
    throw new UsageError('name the result list files: eventor-bot cup <files...> --club NAME-OR-ID --scoring …');
  const twice = files.find((file, i) => files.indexOf(file) !== i);
  if (twice !== undefined) throw new UsageError(`'${twice}' is given twice: each file is one race`);
  const club = takeString(args.flags, 'club');
  if (club === undefined || club.trim() === '') throw new UsageError('name the club: --club NAME-OR-ID');
  const scoring = takeString(args.flags, 'scoring');
  if (scoring === undefined || !isScoring(scoring))
    throw new UsageError(
      `--scoring takes ${SCORINGS.join(' or ')}${scoring === undefined ? '' : ` (not '${scoring}')`}`,
    );
  const best = parseBest(takeString(args.flags, 'best'));
  const json = takeBoolean(args.flags, 'json');
  rejectLeftovers(args.flags);

  const lists: ResultList[] = [];
  for (const file of files) {
    const list = await readList(file, io);
    if (list === null) return 1;
    lists.push(list);
  }
  const keep = ofClub(club);
  const races: SeasonRace[] = [];
  const named: CupRace[] = [];
  lists.forEach((list, i) => {
    for (const race of seasonRaces(list, { keep, complete: true, keyPrefix: `${i}:` })) {
      races.push(race);
      named.push({ file: files[i]!, event: race.eventName || null, race: race.raceNumber, date: dateOf(race) });
    }
  });
  if (!races.some((race) => race.classes.some((cls) => cls.runners.length > 0))) {
    const clubs = clubsIn(lists);
    io.err(
      `eventor-bot cup: no runner of the club '${club}' in the files${clubs.length > 0 ? `; their clubs: ${clubs.slice(0, 30).join(', ')}${clubs.length > 30 ? ', …' : ''}` : ' (they name no clubs)'}\n`,
    );
    return 1;
  }
  // The same name in two files is the same runner; a runner without a name cannot be followed.
  const entries = scoreRaces(races, scoring, (runner) => runner.name).filter((e) => e.name !== '');
  const table = standings(entries, best);
  const result: CupJson = {
    scoring,
    best,
    races: named,
    standings: table.map((s) => ({
      rank: s.rank,
      name: s.name,
      points: s.points,
      races: s.races,
      counted: s.counted.map((c) => ({ race: c.race, points: c.points })),
    })),
  };
  io.out(json ? `${JSON.stringify(result, null, 2)}\n` : text(result));
  return 0;
}

/** The races, then one line per runner: rank, name, total, races run, the points that count. */
function text(result: CupJson): string {
  const lines = [
    `Scoring: ${result.scoring}${result.best === null ? ', every race counts' : `, the best ${result.best} races count`}`,
    '',
    'Races:',
    ...result.races.map(
      (r, i) =>
        `  ${i + 1}. ${r.event ?? '(no event name)'}${r.race > 1 || result.races.filter((x) => x.file === r.file).length > 1 ? `, race ${r.race}` : ''}${r.date ? `, ${r.date}` : ''} (${r.file})`,
    ),
    '',
  ];
  const rows = result.standings.map((s) => [
    `${s.rank}.`,
    s.name,
    String(s.points),
    String(s.races),
    s.counted.map((c) => `${c.points} (${c.race + 1})`).join(' '),
  ]);
  const header = ['', 'Name', 'Points', 'Races', 'Counted: points (race)'];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  for (const row of all)
    lines.push(
      row
        .map((cell, i) => (i === 1 || i === 4 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
        .join('  ')
        .trimEnd(),
    );
  return `${lines.join('\n')}\n`;
}
