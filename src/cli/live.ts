/**
 * `eventor-bot live --competition ID --club NAME`: a club's runners in a live competition, read
 * once from LiveResultat (docs/live-results.md), as a table or as JSON of a fixed shape
 * (docs/operators.md#live). The addresses are the operator's: LIVERESULTAT_URL and
 * LIVERESULTAT_LEGACY_URL, or the options.
 */
import { liveEndpointsFromEnv, liveUrlProblem } from '../config/env.js';
import { ConfigError } from '../config/errors.js';
import { clockFrom, isLoopbackUrl } from '../config/sandbox-clock.js';
import { USER_AGENT } from '../eventor/http.js';
import { LiveClient } from '../live/client.js';
import { clubAliases } from '../live/clubs.js';
import { clockText, competitionZone, secondsIntoDay } from '../live/day.js';
import { LiveError } from '../live/errors.js';
import { parseLiveAddress } from '../live/match.js';
import type { LiveRunner, LiveSourceKind, LiveStatus } from '../live/model.js';
import { lastRadio, statusAt } from '../live/rows.js';
import { LegacySource, RestSource } from '../live/sources.js';
import { CompetitionTracker, type TrackerState } from '../live/tracker.js';
import { type ParsedArgs, rejectLeftovers, takeBoolean, takeString, UsageError } from './args.js';
import { warnedEnvironment } from './environment.js';
import type { Io } from './io.js';

/** One runner of `--json`: the shape is fixed (docs/operators.md#live). */
export interface LiveJsonRunner {
  name: string;
  class: string;
  status: LiveStatus;
  /** Local `HH:MM:SS`, or null. */
  start: string | null;
  time: number | null;
  place: number | null;
  behind: number | null;
  lastControl: { code: number; place: number | null; behind: number | null } | null;
}

export interface LiveJson {
  competition: { id: number; name: string; date: string; timezone: string | null };
  club: string;
  runners: LiveJsonRunner[];
}

const collator = new Intl.Collator('sv', { numeric: true, sensitivity: 'base' });

/** Class, then place (unplaced last), then name. */
export function compareLiveRunners(a: LiveJsonRunner, b: LiveJsonRunner): number {
  return (
    collator.compare(a.class, b.class) ||
    (a.place ?? Number.MAX_SAFE_INTEGER) - (b.place ?? Number.MAX_SAFE_INTEGER) ||
    collator.compare(a.name, b.name)
  );
}

/** The state as `--json` prints it, its runners' statuses as at `now`. */
export function liveJson(state: TrackerState, club: string, now: Date): LiveJson {
  const seconds = secondsIntoDay(state.competition, now);
  const runner = (r: LiveRunner): LiveJsonRunner => {
    const last = lastRadio(r);
    return {
      name: r.name,
      class: r.className,
      status: statusAt(r, seconds),
      start: r.start === null ? null : clockText(r.start),
      time: r.time,
      place: r.place,
      behind: r.behind,
      lastControl: last === null ? null : { code: last.code, place: last.place, behind: last.behind },
    };
  };
  return {
    competition: {
      id: state.competition.id,
      name: state.competition.name,
      date: state.competition.date,
      timezone: competitionZone(state.competition),
    },
    club,
    runners: state.runners.map(runner).sort(compareLiveRunners),
  };
}

const elapsed = (seconds: number): string => {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
};

/** The same as a table: one line per runner, columns as wide as their widest cell. */
function liveTable(json: LiveJson): string {
  const c = json.competition;
  const head = `${c.name} (${c.date}, competition ${c.id}): ${json.runners.length} runner${json.runners.length === 1 ? '' : 's'} of ${json.club}`;
  if (json.runners.length === 0) return `${head}\n`;
  const rows = json.runners.map((r) => [
    r.class,
    r.name,
    r.start ?? '-',
    r.status,
    r.place === null ? '' : `${r.place}.`,
    r.time === null ? '' : elapsed(r.time),
    r.behind === null || r.behind === 0 ? '' : `+${elapsed(r.behind)}`,
    r.lastControl === null
      ? ''
      : `at ${r.lastControl.code}${r.lastControl.place === null ? '' : ` ${r.lastControl.place}.`}${r.lastControl.behind ? ` +${elapsed(r.lastControl.behind)}` : ''}`,
  ]);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return `${head}\n${rows
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

function urlOption(flags: ParsedArgs['flags'], name: string): string | undefined {
  const value = takeString(flags, name);
  if (value === undefined) return undefined;
  const problem = liveUrlProblem(value);
  if (problem !== null) throw new UsageError(`--${name} ${problem}`);
  return value;
}

export async function runLive(args: ParsedArgs, io: Io): Promise<number> {
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'`);
  const competitionText = takeString(args.flags, 'competition');
  const club = takeString(args.flags, 'club')?.trim();
  const restFlag = urlOption(args.flags, 'base-url');
  const legacyFlag = urlOption(args.flags, 'legacy-url');
  const sourceFlag = takeString(args.flags, 'source');
  const json = takeBoolean(args.flags, 'json');
  rejectLeftovers(args.flags);
  if (competitionText === undefined)
    throw new UsageError('name the competition: --competition ID (or its LiveResultat address)');
  const parsed = parseLiveAddress(competitionText);
  if (!('id' in parsed)) throw new UsageError('--competition must be a LiveResultat competition id or address');
  if (club === undefined || club === '')
    throw new UsageError('name the club: --club NAME (as Eventor or LiveResultat writes it)');
  if (sourceFlag !== undefined && sourceFlag !== 'rest' && sourceFlag !== 'legacy')
    throw new UsageError('--source must be rest or legacy');

  const env = warnedEnvironment(io, 'live');
  const configured = liveEndpointsFromEnv(env);
  const endpoints = { restUrl: restFlag ?? configured.restUrl, legacyUrl: legacyFlag ?? configured.legacyUrl };
  const now = clockNow(env.SANDBOX_CLOCK, endpoints);

  const http = { userAgent: USER_AGENT };
  const rest = new RestSource({ ...http, baseUrl: endpoints.restUrl });
  const legacy = new LegacySource({ ...http, baseUrl: endpoints.legacyUrl });
  const aliases = clubAliases({ name: club }, [club]);
  const read = (kind: LiveSourceKind) =>
    new CompetitionTracker(
      new LiveClient({ rest: kind === 'rest' ? rest : null, legacy: kind === 'legacy' ? legacy : null }),
      parsed.id,
      aliases,
    ).refresh();
  try {
    let state: TrackerState;
    try {
      state = await read(sourceFlag ?? 'rest');
    } catch (error) {
      // Without --source, a REST API that is down is no reason to give up: api.php has the same ids.
      if (sourceFlag !== undefined || !(error instanceof LiveError) || !error.transient) throw error;
      io.err(`eventor-bot live: warning: ${error.message}; reading api.php instead\n`);
      state = await read('legacy');
    }
    if (state.errors.length > 0) {
      // Some classes could not be read: a partial list would pass for the whole club.
      io.err(
        `eventor-bot live: ${state.errors[0]!.message}${state.errors.length > 1 ? ` (and ${state.errors.length - 1} more)` : ''}\n`,
      );
      return 1;
    }
    const answer = liveJson(state, club, now());
    io.out(json ? `${JSON.stringify(answer, null, 2)}\n` : liveTable(answer));
    return 0;
  } catch (error) {
    if (error instanceof LiveError) {
      io.err(`eventor-bot live: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await rest.close();
    await legacy.close();
  }
}

/**
 * The clock the runners' statuses are read at: the machine's, or SANDBOX_CLOCK's for the sandbox
 * LiveResultat, whose races run on a clock of their own. Only with both addresses on loopback: a
 * real service read on a shifted clock would call runners out who are not.
 */
function clockNow(sandboxClock: string | undefined, endpoints: { restUrl: string; legacyUrl: string }): () => Date {
  const text = sandboxClock?.trim() ?? '';
  if (text === '') return () => new Date();
  const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(text) ? Date.parse(text) : Number.NaN;
  if (!Number.isFinite(ms))
    throw new ConfigError(['SANDBOX_CLOCK must be an instant with its zone, e.g. 2026-11-18T09:00:00Z']);
  if (!isLoopbackUrl(endpoints.restUrl) || !isLoopbackUrl(endpoints.legacyUrl))
    throw new ConfigError([
      'SANDBOX_CLOCK is for the sandbox LiveResultat only: both live-results addresses must be on loopback',
    ]);
  return clockFrom(new Date(ms));
}
