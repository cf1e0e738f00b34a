/**
 * The sandbox's REST API (`api.orienteering.services`; docs/live-results.md#the-two-apis): its
 * routes and the JSON each answers, as the real service's. ETags, 304 and compression are the
 * server's (server.ts).
 */
import { instantToLocal } from '../../../src/time/zones.js';
import { LIVE_TIME_ZONE, type LiveClassRecord, type LiveCompetitionRecord, type LiveRaceRecord } from './races.js';
import { classRows, type RowView } from './view.js';
import type { LiveWorld } from './world.js';

export interface JsonReply {
  status: number;
  /** The value to send as JSON; null for an empty body. */
  body: unknown;
}

const notFound = (): JsonReply => ({ status: 404, body: { message: 'Not Found' } });
const badRequest = (message: string): JsonReply => ({ status: 400, body: { message } });

function listEntry(c: LiveCompetitionRecord, filtered: boolean, world: LiveWorld): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    id: c.id,
    name: c.name,
    organizer: c.organizer,
    date: c.date,
    timediff: c.timediff,
  };
  if (!filtered) return entry;
  const today = instantToLocal(new Date(world.now()), LIVE_TIME_ZONE).date;
  return {
    ...entry,
    multiDayStage: c.multiDayStage ?? 1,
    multiDayFirstDay: c.multiDayFirstDay ?? c.id,
    country: c.country,
    // Documented as false for past dates even when there are results.
    hasResults: c.date === today && hasAnyResult(world, c.id),
  };
}

function hasAnyResult(world: LiveWorld, id: number): boolean {
  const race = world.race(id);
  const now = world.now();
  return race?.classes.some((cls) => cls.runners.some((r) => r.final !== null && r.final.at <= now)) ?? false;
}

/** The REST answer to a GET of `segments` (the path split on `/`, still percent-encoded) with `query`. */
export function restRoute(world: LiveWorld, segments: readonly string[], query: URLSearchParams): JsonReply {
  if (segments[0] !== 'competitions') return notFound();
  if (segments.length === 1) return competitionList(world, query);
  const id = /^\d{1,9}$/.test(segments[1]!) ? Number(segments[1]) : NaN;
  const competition = world.competition(id);
  if (competition === undefined) return notFound();
  const race = world.race(id)!;
  const now = world.now();
  if (segments.length === 2) {
    return {
      status: 200,
      body: {
        ...listEntry(competition, true, world),
        timezone: world.options.timezone === 'named' ? LIVE_TIME_ZONE : '',
        isPublic: true,
        serverTime: now,
      },
    };
  }
  const rest = segments.slice(2);
  const classes = now < race.uploadAt ? [] : race.classes;
  if (rest.length === 1 && rest[0] === 'classes') return { status: 200, body: { classes: classes.map((c) => c.name) } };
  if (rest.length === 1 && rest[0] === 'classresults') {
    const name = query.get('class');
    if (name === null || name === '') return badRequest('class is required');
    return { status: 200, body: classResults(world, race, name) };
  }
  // The path form: a `/` in the class name splits it into two segments, which no route has.
  if (rest.length === 3 && rest[0] === 'classes' && rest[2] === 'results') {
    let name: string;
    try {
      name = decodeURIComponent(rest[1]!);
    } catch {
      return notFound();
    }
    if (name.includes('/')) return notFound();
    return { status: 200, body: classResults(world, race, name) };
  }
  if (rest.length === 1 && rest[0] === 'clubresults') {
    const club = query.get('club');
    if (club === null || club.trim() === '') return badRequest('club is required');
    return { status: 200, body: clubResults(world, race, club) };
  }
  if (rest.length === 1 && rest[0] === 'passings')
    return { status: 200, body: { passings: passings(world, race, 50) } };
  if (rest.length === 1 && rest[0] === 'remaining') return { status: 200, body: { runners: remaining(world, race) } };
  if (rest.length === 1 && rest[0] === 'export') return { status: 200, body: exported(world, race) };
  return notFound();
}

function competitionList(world: LiveWorld, query: URLSearchParams): JsonReply {
  const now = new Date(world.now());
  const today = instantToLocal(now, LIVE_TIME_ZONE).date;
  let list = [...world.competitions];
  let filtered = true;
  const date = query.get('date');
  const year = query.get('year');
  const pastDays = query.get('pastDays');
  const search = query.get('search');
  if (query.get('today') === 'true') list = list.filter((c) => c.date === today);
  else if (date !== null) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return badRequest('date must be YYYY-MM-DD');
    list = list.filter((c) => c.date === date);
  } else if (year !== null) list = list.filter((c) => c.date.startsWith(`${year}-`));
  else if (pastDays !== null && /^\d{1,4}$/.test(pastDays)) {
    const from = instantToLocal(new Date(now.getTime() - Number(pastDays) * 86_400_000), LIVE_TIME_ZONE).date;
    list = list.filter((c) => c.date >= from && c.date <= today);
  } else if (search !== null) {
    const words = search.toLowerCase();
    list = list.filter((c) => c.name.toLowerCase().includes(words) || c.organizer.toLowerCase().includes(words));
  } else filtered = false;
  // Newest first, as the real list.
  const entries = list
    .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id)
    .map((c) => listEntry(c, filtered, world));
  return { status: 200, body: world.options.restListEnvelope === 'array' ? entries : { competitions: entries } };
}

function splitsOf(row: RowView, world: LiveWorld): Record<string, unknown> | undefined {
  if (row.splits.length === 0) return undefined;
  const splits: Record<string, unknown> = {};
  const ok = row.status === 0 || row.status === 9 || row.status === 10;
  for (const split of row.splits) {
    const key = String(split.code);
    if (split.time === null) {
      if (world.options.restUnreachedSplits === 'omitted') continue;
      splits[key] = '';
      splits[`${key}_status`] = 1;
      splits[`${key}_place`] = '';
      continue;
    }
    splits[key] = split.time;
    splits[`${key}_status`] = ok ? 0 : row.status;
    splits[`${key}_place`] = ok ? split.place : '-';
    splits[`${key}_timeplus`] = split.timeplus;
    splits[`${key}_changed`] = split.changed;
  }
  return splits;
}

function placeText(row: RowView, tiedAs: 'repeat' | 'equals'): string {
  if (row.place !== null) return row.tied && tiedAs === 'equals' ? '=' : String(row.place);
  return row.status === 9 || row.status === 10 ? '' : '-';
}

function restRow(row: RowView, world: LiveWorld): Record<string, unknown> {
  const splits = splitsOf(row, world);
  return {
    place: placeText(row, world.options.restTiedPlace),
    name: row.runner.name,
    club: row.runner.club,
    bib: row.runner.bib,
    result: row.result ?? '',
    status: row.status,
    timeplus: row.timeplus ?? '',
    progress: row.progress,
    start: row.runner.start ?? 0,
    changed: row.changed,
    startChanged: row.startChanged,
    ...(splits === undefined ? {} : { splits }),
  };
}

function classResults(world: LiveWorld, race: LiveRaceRecord, name: string): Record<string, unknown> {
  const now = world.now();
  const cls = now < race.uploadAt ? undefined : race.classes.find((c) => c.name === name);
  // An unknown class is answered 200 and empty, under the name asked.
  const rows = cls === undefined ? [] : classRows(race, cls, now, world.options.restWaitingStatus);
  return {
    className: name,
    splitControls: cls?.radioControls ?? [],
    results: rows.map((row) => restRow(row, world)),
    isMultiDay: race.competition.multiDayStage !== null,
    isMassStart: cls?.isMassStart ?? false,
    qualificationLimits: [],
  };
}

function uploadedClasses(world: LiveWorld, race: LiveRaceRecord): LiveClassRecord[] {
  return world.now() < race.uploadAt ? [] : race.classes;
}

function clubResults(world: LiveWorld, race: LiveRaceRecord, club: string): Record<string, unknown> {
  const now = world.now();
  const results = uploadedClasses(world, race).flatMap((cls) =>
    classRows(race, cls, now, world.options.restWaitingStatus)
      .filter((row) => row.runner.club === club)
      .map((row) => ({ ...restRow(row, world), class: cls.name })),
  );
  return world.options.restClubEnvelope === 'clubName' ? { clubName: club, results } : { results };
}

/** The newest radio and finish punches, newest first. */
export function passings(world: LiveWorld, race: LiveRaceRecord, count: number) {
  const now = world.now();
  const out: { at: number; entry: Record<string, unknown> }[] = [];
  for (const cls of uploadedClasses(world, race)) {
    const rows = classRows(race, cls, now, world.options.restWaitingStatus);
    for (const row of rows) {
      const startMs = row.runner.start === null ? null : race.midnight + row.runner.start * 10;
      for (const split of row.splits) {
        if (split.time === null) continue;
        out.push({
          at: split.changed! * 1000,
          entry: {
            class: cls.name,
            control: split.code,
            controlName: cls.radioControls.find((c) => c.code === split.code)?.name ?? null,
            place: split.place,
            bib: row.runner.bib,
            name: row.runner.name,
            club: row.runner.club,
            time: split.time,
            timeplus: split.timeplus,
            wallClock: (row.runner.start ?? 0) + split.time,
            changed: split.changed,
          },
        });
      }
      if (row.result !== null && row.runner.final !== null && startMs !== null) {
        out.push({
          at: row.runner.final.at,
          entry: {
            class: cls.name,
            control: 1000,
            controlName: null,
            place: row.place,
            bib: row.runner.bib,
            name: row.runner.name,
            club: row.runner.club,
            time: row.result,
            timeplus: row.timeplus,
            wallClock: (row.runner.start ?? 0) + row.result,
            changed: row.changed,
          },
        });
      }
    }
  }
  return out
    .sort((a, b) => b.at - a.at)
    .slice(0, count)
    .map((p) => p.entry);
}

/** Up to 100 runners not started, running, or OK without a finish time, in start order. */
function remaining(world: LiveWorld, race: LiveRaceRecord) {
  const now = world.now();
  return uploadedClasses(world, race)
    .flatMap((cls) =>
      classRows(race, cls, now, world.options.restWaitingStatus)
        .filter(
          (row) =>
            (row.status === 9 || row.status === 10 || (row.status === 0 && row.result === null)) && !row.runner.ghost,
        )
        .map((row) => ({
          class: cls.name,
          bib: row.runner.bib,
          name: row.runner.name,
          club: row.runner.club,
          start: row.runner.start ?? 0,
          status: row.status,
        })),
    )
    .sort((a, b) => a.start - b.start)
    .slice(0, 100);
}

/** The whole competition in one answer: classes, runners with ids, and every punch and result; no places. */
function exported(world: LiveWorld, race: LiveRaceRecord): Record<string, unknown> {
  const now = world.now();
  const runners: Record<string, unknown>[] = [];
  const results: Record<string, unknown>[] = [];
  let id = race.competition.id * 1000;
  const classes = uploadedClasses(world, race);
  for (const cls of classes) {
    for (const row of classRows(race, cls, now, world.options.restWaitingStatus)) {
      const runnerId = id++;
      runners.push({
        id: runnerId,
        name: row.runner.name,
        club: row.runner.club,
        class: cls.name,
        bib: row.runner.bib,
        ...(row.runner.startMissing || row.runner.start === null ? {} : { start: row.runner.start }),
      });
      for (const split of row.splits)
        if (split.time !== null)
          results.push({ runnerId, control: split.code, time: split.time, status: 0, changed: split.changed });
      if (row.status !== 9 && row.status !== 10)
        results.push({ runnerId, control: 1000, time: row.result ?? -1, status: row.status, changed: row.changed });
    }
  }
  return {
    ...(world.options.exportEventId === 'id' ? { eventid: race.competition.id } : {}),
    competition: { id: race.competition.id, name: race.competition.name, date: race.competition.date },
    classes: classes.map((cls) => ({
      name: cls.name,
      isMassStart: cls.isMassStart,
      qualificationLimits: '',
      radioControls: cls.radioControls,
      ...(cls.relayLeg === null ? {} : { relayLeg: cls.relayLeg, relayClassName: cls.relayClassName }),
    })),
    runners,
    results,
  };
}
