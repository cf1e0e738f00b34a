import { describe, expect, it } from 'vitest';
import { demoFacts } from '../../harness/demo/bot-session.js';
import { pickChangedRaces, pickCorrection, pickRace, stageRace } from '../../harness/demo/scheduler-session.js';
import { SANDBOX_TIME_ZONE, SandboxDataset, type SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { instantToLocal } from '../../src/time/zones.js';

/**
 * The sandbox's data read as an orienteer reads it: what a name says (a weekday, a
 * level, an age group, a distance, a season, the dark) is what the event or activity is. Checked
 * for every event and activity of datasets made around a "now" in each month of two years, since
 * the dataset places its events around its "now".
 */

const DAY = 86_400_000;
/** The 1st and the 15th of each month of 2026 and 2027, midday UTC, and the scheduler demo's base. */
const NOWS = [
  ...Array.from({ length: 24 }, (_, m) => [
    new Date(Date.UTC(2026 + Math.floor(m / 12), m % 12, 1, 12)),
    new Date(Date.UTC(2026 + Math.floor(m / 12), m % 12, 15, 12)),
  ]).flat(),
  new Date('2026-10-01T10:00:00Z'),
];

/** Weekday words (Swedish, Norwegian, English; also inside compounds like "Torsdagsträning"), by day 0 Sunday … 6 Saturday. */
const WEEKDAY_WORDS: ReadonlyArray<readonly [RegExp, number]> = [
  [/söndag|søndag|sunday/i, 0],
  [/måndag|mandag|monday/i, 1],
  [/tisdag|tirsdag|tuesday/i, 2],
  [/onsdag|wednesday/i, 3],
  [/torsdag|thursday/i, 4],
  [/fredag|friday/i, 5],
  [/lördag|lørdag|saturday/i, 6],
];

/** The local date, weekday (0 Sunday) and month (1 to 12) of an instant in the club's zone. */
function local(instant: string): { date: string; weekday: number; month: number; hour: number } {
  const { date, clock } = instantToLocal(new Date(instant), SANDBOX_TIME_ZONE);
  return {
    date,
    weekday: new Date(`${date}T12:00:00Z`).getUTCDay(),
    month: Number(date.slice(5, 7)),
    hour: Number(clock.slice(0, 2)),
  };
}

/** The weekdays a text names. */
function weekdaysNamed(text: string): number[] {
  return WEEKDAY_WORDS.filter(([word]) => word.test(text)).map(([, day]) => day);
}

/** The upper age of a junior class (D/H up to 20), or null for any other. */
function juniorAge(className: string, maxAge: number | null): number | null {
  const age = /^[DH](\d+)\b/.exec(className)?.[1];
  if (age !== undefined && Number(age) <= 20) return Number(age);
  return maxAge !== null && maxAge <= 20 ? maxAge : null;
}

/** Every rule an event breaks, as readable lines (empty when it makes sense). */
function eventProblems(dataset: SandboxDataset, ev: SandboxEvent): string[] {
  const e = ev.event;
  const problems: string[] = [];
  const say = (what: string): void =>
    void problems.push(
      `${dataset.now.toISOString()} event ${e.id} '${e.name}' (${e.classification}, ${e.start}): ${what}`,
    );
  if (e.start === null) return problems;
  const start = local(e.start);

  for (const day of weekdaysNamed(e.name))
    if (day !== start.weekday) say(`its name names weekday ${day}, it starts on weekday ${start.weekday}`);
  // "Anmälan stänger söndag": the weekday the ordinary entry closes.
  const closes = /stänger (\p{L}+)/u.exec(e.message ?? '')?.[1];
  const ordinaryTo = e.entryBreaks[0]?.to;
  if (closes !== undefined && ordinaryTo) {
    for (const day of weekdaysNamed(closes))
      if (day !== local(ordinaryTo).weekday)
        say(`its message says entry closes on weekday ${day}, it closes on weekday ${local(ordinaryTo).weekday}`);
  }

  // "International" is not national.
  const saysNational = /(?<!inter)nation|nasjonal/i.test(e.name);
  if (saysNational !== (e.classification === 'national'))
    say(`the name ${saysNational ? 'says' : 'does not say'} national, the level is ${e.classification}`);
  if (/distriktsmästerskap|\bDM\b|DM-/i.test(e.name) && e.classification !== 'championship')
    say('a district championship that is not a championship');
  if (/klubbmästerskap/i.test(e.name) && e.classification !== 'club')
    say('a club championship that is not a club event');

  const relayForm = e.form === 'RelaySingleDay' || e.form === 'RelayMultiDay';
  if (/stafett|relay/i.test(e.name) !== relayForm)
    say(`the name and the form (${e.form}) disagree on whether it is a relay`);
  for (const race of e.races) {
    if (relayForm !== (race.distance === 'Relay'))
      say(`race ${race.id} has distance ${race.distance} in a ${e.form} event`);
    if (/sprint/i.test(e.name) && race.distance !== 'Sprint') say(`a sprint with a ${race.distance} race`);
    if (/medeldistans/i.test(e.name) && race.distance !== 'Middle')
      say(`a middle distance with a ${race.distance} race`);
    if (/långdistans/i.test(e.name) && race.distance !== 'Long') say(`a long distance with a ${race.distance} race`);
    if (race.date === null) continue;
    const at = local(race.date);
    const saysNight = /natt|night/i.test(e.name);
    if (saysNight !== (race.lightCondition === 'Night'))
      say(`the name ${saysNight ? 'says' : 'does not say'} night, race ${race.id} is run in ${race.lightCondition}`);
    // Dark by 19:00 only from October to February (Stockholm's sunset is after 19:00 from April to mid-September).
    if (race.lightCondition === 'Night' && !([10, 11, 12, 1, 2].includes(at.month) && at.hour >= 19))
      say(`a night race at ${at.date} ${at.hour}:00, in daylight`);
    if (race.lightCondition === 'Day' && at.hour >= 17 && ![4, 5, 6, 7, 8].includes(at.month))
      say(`a daylight race starting ${at.date} ${at.hour}:00, in the dark`);
  }
  if (e.attributes.some((a) => /kvällstävling/i.test(a.name ?? '')) && start.hour < 17)
    say(`an evening event starting at ${start.hour}:00`);
  if (/vår/i.test(e.name) && ![3, 4, 5].includes(start.month)) say(`a spring event in month ${start.month}`);
  if (/höst/i.test(e.name) && ![9, 10, 11].includes(start.month)) say(`an autumn event in month ${start.month}`);

  const classes = dataset.details(ev).classes;
  if (relayForm && classes.some((c) => !c.teamEntry)) say('a relay with individual classes');
  if (!relayForm && classes.some((c) => c.teamEntry)) say('an individual event with relay classes');
  if (/veteran/i.test(e.name)) {
    for (const c of classes)
      if (juniorAge(c.name, c.maxAge) !== null) say(`a veterans' event with the junior class ${c.name}`);
  }
  if (/ungdom|youth/i.test(e.name) && !relayForm) {
    for (const c of classes)
      if (juniorAge(c.name, c.maxAge) === null && /^[DH]\d/.test(c.name))
        say(`a youth event with the adult class ${c.name}`);
  }
  return problems;
}

describe('the sandbox data makes sense to an orienteer', () => {
  it('names agree with weekday, level, form, distance, light, season and classes, for every event and activity', () => {
    const problems: string[] = [];
    let events = 0;
    let activities = 0;
    for (const now of NOWS) {
      const dataset = new SandboxDataset({ seed: 1, now });
      for (const ev of dataset.events) {
        events++;
        problems.push(...eventProblems(dataset, ev));
      }
      for (const activity of dataset.activities) {
        activities++;
        if (activity.startTime === null) continue;
        const start = local(activity.startTime);
        for (const day of weekdaysNamed(activity.name)) {
          if (day !== start.weekday)
            problems.push(
              `${now.toISOString()} activity ${activity.id} '${activity.name}' (${activity.startTime}): names weekday ${day}, is on weekday ${start.weekday}`,
            );
        }
      }
    }
    expect(events).toBeGreaterThan(NOWS.length * 30);
    expect(activities).toBeGreaterThan(NOWS.length * 30);
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
  });

  it('the kinds the rules speak of all occur, so that the rules are not vacuous', () => {
    const names = NOWS.flatMap((now) => new SandboxDataset({ seed: 1, now }).events.map((ev) => ev.event));
    for (const word of [/veteran/i, /ungdom/i, /nation/i, /stafett/i, /natt/i, /sprint/i, /vår/i, /höst/i]) {
      expect(
        names.some((e) => word.test(e.name)),
        String(word),
      ).toBe(true);
    }
    expect(names.some((e) => e.races.some((r) => r.lightCondition === 'Night'))).toBe(true);
    expect(names.some((e) => e.classification === 'national')).toBe(true);
    // Thursday trainings, every one on a Thursday (checked above), exist in every dataset.
    const dataset = new SandboxDataset({ seed: 1, now: NOWS[0]! });
    expect(dataset.activities.filter((a) => /torsdag/i.test(a.name)).length).toBeGreaterThan(0);
    expect(Date.parse(dataset.activities[0]!.startTime!) - NOWS[0]!.getTime()).toBeLessThan(120 * DAY);
  });
});

describe("the demo's parts find what they show in the data made around any day", () => {
  it('an upcoming event with entries, a start list, results, an activity, and a race weekend with a correction and two later races to change', () => {
    const missing: string[] = [];
    for (const now of NOWS) {
      const dataset = new SandboxDataset({ seed: 1, now });
      try {
        demoFacts(dataset, now.getTime());
        const race = pickRace(dataset, now);
        pickCorrection(dataset, stageRace(dataset, race).full);
        pickChangedRaces(dataset, race);
      } catch (error) {
        missing.push(`${now.toISOString()}: ${(error as Error).message}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

describe('a sandbox with more clubs than its named ones (a federation-wide bot in the bench)', () => {
  const now = new Date('2026-10-01T10:00:00Z');

  it('adds numbered clubs with their own members and keys, and leaves the named clubs as they are', () => {
    const named = new SandboxDataset({ now });
    const many = new SandboxDataset({ now, clubs: 100 });
    expect(named.clubs).toHaveLength(13);
    expect(many.clubs).toHaveLength(100);
    expect(new Set(many.clubs.map((c) => c.apiKey)).size).toBe(100);
    expect(many.clubs.every((c) => c.members.length > 0 && c.organisation.parentId !== null)).toBe(true);
    expect(many.clubs[99]!.name).toBe('Klubb 100 OK');
    // The named clubs' ids, keys and members are the same with or without the numbered ones.
    const summary = (d: SandboxDataset) =>
      d.clubs.slice(0, 13).map((c) => [c.id, c.name, c.apiKey, c.members.map((m) => m.person.id).join(',')]);
    expect(summary(many)).toEqual(summary(named));
    expect(many.clubForKey(many.clubs[57]!.apiKey)).toBe(many.clubs[57]);
  });

  it('the default data does not change with the option left out or set to the named count', () => {
    const a = new SandboxDataset({ now });
    const b = new SandboxDataset({ now, clubs: 13 });
    expect(b.events.map((e) => e.event.id)).toEqual(a.events.map((e) => e.event.id));
    expect(b.events.map((e) => e.event.name)).toEqual(a.events.map((e) => e.event.name));
  });
});
