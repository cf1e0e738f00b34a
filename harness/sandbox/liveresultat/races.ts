/**
 * The sandbox LiveResultat's competitions: one per race of the sandbox Eventor's events (each
 * stage of a multi-day event its own, as on LiveResultat), created by the organiser by hand (its
 * own name, organiser and date), and their runners as the timing software uploads them: the start
 * list, then radio passings, finishes and statuses at the moments the race's results say, on the
 * sandbox clock. Made from the event's whole outcome (the start list and the results with split
 * times), which the sandbox Eventor itself publishes only later.
 */
import type { ClassResult, ClassStart, ResultStatus, SplitTime } from '../../../src/eventor/model.js';
import { instantToLocal, localToInstant } from '../../../src/time/zones.js';
import type { SandboxDataset, SandboxEvent } from '../eventor/dataset.js';
import { materialize } from '../eventor/participants.js';
import { stableHash } from '../eventor/prng.js';
import type { LiveOptions } from './options.js';

export const LIVE_TIME_ZONE = 'Europe/Stockholm';
/** The first sandbox competition id; LiveResultat's ids are sequential. */
export const FIRST_COMPETITION_ID = 50001;

/** A competition as its organiser created it. */
export interface LiveCompetitionRecord {
  id: number;
  name: string;
  organizer: string;
  /** Local date, YYYY-MM-DD. */
  date: string;
  timediff: number;
  country: string;
  multiDayStage: number | null;
  multiDayFirstDay: number | null;
  /** The Eventor event and race it is, or null for a competition the sandbox Eventor has not (another organiser's training). */
  eventId: string | null;
  raceIndex: number;
}

/** A radio punch or the finish of one runner: when it reaches LiveResultat, and the time from the start it carries. */
export interface Passing {
  code: number;
  /** Epoch ms it is uploaded. */
  at: number;
  /** Hundredths from the runner's start. */
  time: number;
}

export interface LiveRunnerRecord {
  name: string;
  club: string;
  bib: string;
  /** Hundredths after local midnight; null when the start list has none. */
  start: number | null;
  /** The Eventor person, for tests relating the two sandboxes. */
  personId: string | null;
  radios: Passing[];
  /** The final state: status code, result (hundredths, null without) and when it is uploaded. */
  final: { status: number; result: number | null; at: number } | null;
  /** A time uploaded wrong at the finish and put right at `at` (the "late correction"). */
  correction: { wrongResult: number; at: number } | null;
  /** A second row of the same runner, status "not started" forever (a double upload). */
  ghost: boolean;
  /** The runner's row is left out of the export and of `api.php`'s start (the missing-start quirk). */
  startMissing: boolean;
}

export interface LiveClassRecord {
  name: string;
  radioControls: { code: number; name: string }[];
  runners: LiveRunnerRecord[];
  relayLeg: number | null;
  relayClassName: string | null;
  isMassStart: boolean;
}

export interface LiveRaceRecord {
  competition: LiveCompetitionRecord;
  /** Epoch ms of local midnight of the competition day. */
  midnight: number;
  /** When the start list is uploaded (two hours before the first start); before it the competition has no classes. */
  uploadAt: number;
  classes: LiveClassRecord[];
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The competitions of the dataset, every race of every event that is not cancelled, in event order; decoys after each day's first. */
export function liveCompetitions(dataset: SandboxDataset, options: LiveOptions): LiveCompetitionRecord[] {
  const out: LiveCompetitionRecord[] = [];
  let id = FIRST_COMPETITION_ID;
  const days = new Set<string>();
  for (const ev of dataset.events) {
    if (ev.event.status === 'canceled' || ev.syntheticRunners > 0) continue;
    const races = ev.event.races;
    const firstId = id;
    races.forEach((race, raceIndex) => {
      if (race.date === null) return;
      const date = instantToLocal(race.date, LIVE_TIME_ZONE).date;
      const organiser = dataset.organisation(ev.event.organisers[0]?.id ?? '');
      const multi = races.length > 1;
      // Typed by the organiser, each a little differently: the event's name, sometimes with the
      // year, the stage in a multi-day event; the club by its short name or its full one.
      const typing = stableHash(`${ev.id}|${raceIndex}`);
      const name = typing % 3 === 0 ? `${ev.name} ${date.slice(0, 4)}` : ev.name;
      out.push({
        id: id++,
        name: multi ? `${name}, etapp ${raceIndex + 1}` : name,
        organizer: (typing % 2 === 0 ? organiser?.name : organiser?.shortName) ?? organiser?.name ?? '',
        date,
        timediff: 0,
        country: organiser?.countryCode === 'NOR' ? 'no' : 'se',
        multiDayStage: multi ? raceIndex + 1 : null,
        multiDayFirstDay: multi ? firstId : null,
        eventId: ev.id,
        raceIndex,
      });
      if (options.decoys && !days.has(date)) {
        days.add(date);
        const other = dataset.clubs[(stableHash(date) % (dataset.clubs.length - 1)) + 1]!.organisation;
        out.push({
          id: id++,
          name: 'Klubbträning med tidtagning',
          organizer: other.shortName ?? other.name,
          date,
          timediff: 0,
          country: 'se',
          multiDayStage: null,
          multiDayFirstDay: null,
          eventId: null,
          raceIndex: 0,
        });
      }
    });
  }
  return out;
}

/** The event with its start list and results as they will be, whatever the sandbox Eventor has published. */
function wholeOutcome(dataset: SandboxDataset, ev: SandboxEvent) {
  return materialize(dataset, { ...ev, hasStartList: true, hasResults: true, materialized: null });
}

const personName = (name: { given: string; family: string } | null | undefined): string =>
  name ? `${name.given} ${name.family}`.trim() : '';

/** LiveResultat's status codes for the model's result statuses (docs/live-results.md#status-codes). */
function statusCode(status: ResultStatus): number {
  switch (status) {
    case 'OK':
      return 0;
    case 'DidNotStart':
      return 1;
    case 'DidNotFinish':
      return 2;
    case 'MissingPunch':
      return 3;
    case 'Disqualified':
      return 4;
    case 'OverTime':
      return 5;
    default:
      return 0;
  }
}

/**
 * The radio controls of a course: the controls a third and two thirds of the way round, as the
 * LiveResultat codes (1000 × the pass + the code; a control visited again is a later pass).
 */
function radiosOfCourse(codes: readonly string[]): { code: number; name: string; index: number }[] {
  if (codes.length < 3) return [];
  const passes = new Map<string, number>();
  const numbered = codes.map((code, index) => {
    const pass = (passes.get(code) ?? 0) + 1;
    passes.set(code, pass);
    return { code: pass * 1000 + Number(code), name: `Radio ${code}`, index };
  });
  const picks = [Math.floor(codes.length / 3), Math.floor((2 * codes.length) / 3)];
  return [...new Set(picks)].map((i) => numbered[i]!);
}

/** The race as LiveResultat will show it; null for a competition whose event has no runners (yet). */
export function buildRace(
  dataset: SandboxDataset,
  record: LiveCompetitionRecord,
  options: LiveOptions,
): LiveRaceRecord {
  const midnight = Date.parse(localToInstant(record.date, '00:00:00', LIVE_TIME_ZONE)!);
  const ev = record.eventId === null ? undefined : dataset.event(record.eventId);
  if (ev === undefined) return { competition: record, midnight, uploadAt: midnight + 6 * HOUR, classes: [] };
  const outcome = wholeOutcome(dataset, ev);
  const raceId = ev.event.races[record.raceIndex]?.id ?? null;
  const clubName = (id: string | null | undefined, fallback: string | null | undefined): string => {
    const org = id ? dataset.organisation(id) : undefined;
    const uploaded = options.clubNames === 'short' ? (org?.shortName ?? org?.name) : (org?.name ?? org?.shortName);
    return uploaded ?? fallback ?? '';
  };
  const hundredthsAfterMidnight = (instant: string | null | undefined): number | null =>
    instant ? Math.round((Date.parse(instant) - midnight) / 10) : null;

  const classes: LiveClassRecord[] = [];
  const results = outcome.resultList?.classes ?? [];
  for (const cls of results) {
    if (cls.teams.length > 0) classes.push(...relayClasses(cls, record, midnight, clubName, options));
    else {
      const built = individualClass(
        cls,
        outcome.startList?.classes ?? [],
        record,
        raceId,
        midnight,
        clubName,
        hundredthsAfterMidnight,
        options,
      );
      if (built.runners.length > 0) classes.push(built);
    }
  }
  const starts = classes.flatMap((c) => c.runners.map((r) => r.start ?? Number.POSITIVE_INFINITY));
  const first = Math.min(...starts);
  const uploadAt = Number.isFinite(first) ? midnight + first * 10 - 2 * HOUR : midnight + 6 * HOUR;
  const home = new Set(dataset.homeClub.members.map((m) => m.person.id));
  applyQuirks(classes, record, options, (r) => r.personId !== null && home.has(r.personId));
  return { competition: record, midnight, uploadAt, classes };
}

function individualClass(
  cls: ClassResult,
  startClasses: readonly ClassStart[],
  record: LiveCompetitionRecord,
  raceId: string | null,
  midnight: number,
  clubName: (id: string | null | undefined, fallback: string | null | undefined) => string,
  afterMidnight: (instant: string | null | undefined) => number | null,
  options: LiveOptions,
): LiveClassRecord {
  const startClass = startClasses.find((c) => c.class.id === cls.class.id);
  // The course's controls, from the runner with the most punches (all runners of a class share one here).
  const courseCodes =
    cls.persons
      .map((p) => raceResultOf(p.results, raceId, record.raceIndex)?.splits ?? [])
      .reduce<SplitTime[]>((a, b) => (b.length > a.length ? b : a), [])
      .map((s) => s.controlCode) ?? [];
  const radios = radiosOfCourse(courseCodes);
  const runners: LiveRunnerRecord[] = [];
  for (const person of cls.persons) {
    const result = raceResultOf(person.results, raceId, record.raceIndex);
    if (!result) continue;
    const listed = startClass?.persons.find((s) => s.person?.id === person.person?.id);
    const startInstant =
      listed?.starts.find((s) => s.raceId === raceId || raceId === null || s.raceId === null)?.startTime ??
      result.startTime;
    const start = afterMidnight(startInstant);
    const startMs = start === null ? null : midnight + start * 10;
    const passings: Passing[] = [];
    if (startMs !== null)
      for (const radio of radios) {
        const split = result.splits[radio.index];
        if (split?.time !== null && split?.time !== undefined && split.status === 'OK')
          passings.push({ code: radio.code, at: startMs + split.time * 1000, time: split.time * 100 });
      }
    runners.push({
      name: personName(person.person?.name),
      club: clubName(person.organisation?.id, person.organisation?.name),
      bib: '',
      start,
      personId: person.person?.id ?? null,
      radios: passings,
      final: finalOf(result.status, result.time, startMs, passings, options),
      correction: null,
      ghost: false,
      startMissing: false,
    });
  }
  return {
    name: cls.class.name,
    radioControls: radios.map(({ code, name }) => ({ code, name })),
    runners,
    relayLeg: null,
    relayClassName: null,
    isMassStart: false,
  };
}

function raceResultOf<T extends { raceId: string | null }>(
  results: readonly T[],
  raceId: string | null,
  index: number,
): T | undefined {
  return results.find((r) => r.raceId !== null && r.raceId === raceId) ?? results[index];
}

/**
 * When the final state reaches LiveResultat: a finish (OK or MP) at start + time; a DNF when the
 * runner reports at the finish, a quarter of an hour after the last punch; a DNS ten minutes
 * after the start time, when the start officials' list is entered.
 */
function finalOf(
  status: ResultStatus,
  time: number | null,
  startMs: number | null,
  passings: readonly Passing[],
  options: LiveOptions,
): LiveRunnerRecord['final'] {
  if (startMs === null) return null;
  const code = statusCode(status);
  if (code === 0 || code === 3 || code === 5) {
    if (time === null) return null;
    return { status: code, result: time * 100, at: startMs + time * 1000 };
  }
  if (code === 1) return { status: 1, result: null, at: startMs + options.dnsAfterMinutes * MINUTE };
  const last = passings.reduce((latest, p) => Math.max(latest, p.at), startMs);
  return { status: code, result: null, at: last + 15 * MINUTE };
}

/** Relay legs as classes `<Class>-<leg>`, the team's name as the club, each leg's time the team's total (or the leg's). */
function relayClasses(
  cls: ClassResult,
  record: LiveCompetitionRecord,
  midnight: number,
  clubName: (id: string | null | undefined, fallback: string | null | undefined) => string,
  options: LiveOptions,
): LiveClassRecord[] {
  const legs = Math.max(0, ...cls.teams.map((t) => t.members.length));
  const out: LiveClassRecord[] = [];
  for (let leg = 1; leg <= legs; leg++) {
    const courseCodes = cls.teams
      .map((t) => t.members[leg - 1]?.result.splits ?? [])
      .reduce<SplitTime[]>((a, b) => (b.length > a.length ? b : a), []);
    const radios = radiosOfCourse(courseCodes.map((s) => s.controlCode));
    const runners: LiveRunnerRecord[] = [];
    for (const team of cls.teams) {
      const member = team.members.find((m) => m.leg === leg);
      if (!member) continue;
      const r = member.result;
      const start = r.startTime ? Math.round((Date.parse(r.startTime) - midnight) / 10) : null;
      const startMs = start === null ? null : midnight + start * 10;
      const passings: Passing[] = [];
      if (startMs !== null)
        for (const radio of radios) {
          const split = r.splits[radio.index];
          if (split?.time != null && split.status === 'OK')
            passings.push({ code: radio.code, at: startMs + split.time * 1000, time: split.time * 100 });
        }
      const shownTime = options.relayLegTime === 'cumulative' ? (r.overall?.time ?? r.time) : r.time;
      const final = finalOf(r.status, r.time, startMs, passings, options);
      runners.push({
        name: personName(member.person?.name),
        club: team.name || clubName(team.organisations[0]?.id, null),
        bib: team.bibNumber ?? '',
        start,
        personId: member.person?.id ?? null,
        radios: passings,
        final: final && final.result !== null && shownTime !== null ? { ...final, result: shownTime * 100 } : final,
        correction: null,
        ghost: false,
        startMissing: false,
      });
    }
    out.push({
      name: `${cls.class.name}-${leg}`,
      radioControls: radios.map(({ code, name }) => ({ code, name })),
      runners,
      relayLeg: leg,
      relayClassName: cls.class.name,
      isMassStart: leg === 1,
    });
  }
  void record;
  return out;
}

/**
 * The documented quirks, each an option (docs/live-results.md, and LiveOptions): `/` in class
 * names, a double upload with ghost rows, a raw tab in a name, start times missing, a late correction.
 */
function applyQuirks(
  classes: LiveClassRecord[],
  record: LiveCompetitionRecord,
  options: LiveOptions,
  ofHomeClub: (runner: LiveRunnerRecord) => boolean,
): void {
  if (options.slashClasses)
    for (const cls of classes) {
      const m = /^([DH])21$/.exec(cls.name);
      if (m) cls.name = `${m[1]}20/21`;
    }
  const withRunners = classes.filter((c) => c.runners.length > 0);
  if (options.ghostRows && withRunners[0]) {
    const cls = withRunners[0];
    cls.runners = cls.runners.flatMap((r) => [r, { ...r, radios: [], final: null, correction: null, ghost: true }]);
  }
  if (options.tabInName && withRunners[0]?.runners[0]) {
    const runner = withRunners[0].runners[0];
    const ghost = withRunners[0].runners[1];
    runner.name = runner.name.replace(' ', '\t');
    if (ghost?.ghost) ghost.name = runner.name;
  }
  if (options.missingStarts > 0)
    for (const cls of classes)
      for (const r of cls.runners)
        r.startMissing = stableHash(`${record.id}|${r.name}`) % 1000 < options.missingStarts * 1000;
  if (options.lateCorrection) {
    // A misread finish put right a quarter of an hour later: a home-club finisher's when there is one.
    const finishers = withRunners
      .flatMap((c) => c.runners)
      .filter((r) => !r.ghost && r.final?.status === 0 && r.final.result !== null);
    const runner = finishers.find(ofHomeClub) ?? finishers[0];
    if (runner?.final?.result != null)
      runner.correction = { wrongResult: runner.final.result + 6000, at: runner.final.at + 15 * MINUTE };
  }
}
