import { describe, expect, it } from 'vitest';
import { ADULT_AGE, demoFacts, yearsOld } from '../../harness/demo/bot-session.js';
import type { SplitTime } from '../../src/eventor/model.js';
import {
  type DatasetSize,
  LARGE_EVENT_ID,
  SANDBOX_TIME_ZONE,
  SandboxDataset,
  type SandboxEvent,
} from '../../harness/sandbox/eventor/dataset.js';
import { instantToLocal } from '../../src/time/zones.js';
import { testNow } from '../support/clock.js';

/**
 * The sandbox's calendar and courses as an orienteer knows them: races at the weekend (a few on a
 * midweek evening), a multi-day event on consecutive days in one area, no control twice in a row
 * on a course, and an adult as the demo's member who links her Eventor account. Checked over
 * several seeds, both sizes and a "now" in each season (the dataset places its events around it).
 */

const SEEDS = [1, 2, 7, 42];
const SIZES: DatasetSize[] = ['small', 'large'];
/** A day in each season, at different times and days of the week, and the scheduler demo's base. */
const NOWS = [
  new Date('2026-01-14T07:00:00Z'),
  new Date('2026-04-04T12:00:00Z'),
  new Date('2026-06-15T10:00:00Z'),
  new Date('2026-08-30T19:30:00Z'),
  new Date('2026-10-01T10:00:00Z'),
  new Date('2026-12-18T23:00:00Z'),
];
const SATURDAY = 6;
const SUNDAY = 0;
const FRIDAY = 5;
const MIDWEEK_EVENINGS = [2, 3];

/** The local date, day of the week (0 Sunday) and hour of an instant in the club's zone. */
function local(instant: string): { date: string; weekday: number; hour: number } {
  const { date, clock } = instantToLocal(new Date(instant), SANDBOX_TIME_ZONE);
  return { date, weekday: new Date(`${date}T12:00:00Z`).getUTCDay(), hour: Number(clock.slice(0, 2)) };
}

/** Days from one local date to another. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T12:00:00Z`) - Date.parse(`${from}T12:00:00Z`)) / 86_400_000);
}

/** Kilometres between two positions (an equirectangular estimate: fine over a few tens of km). */
function km(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const lat = (((a.lat + b.lat) / 2) * Math.PI) / 180;
  return Math.hypot((a.lat - b.lat) * 111.2, (a.lon - b.lon) * 111.2 * Math.cos(lat));
}

/** Every dataset the checks read: each seed, size and "now" (24 × 2, made in well under a second each). */
function* datasets(): Generator<SandboxDataset> {
  for (const seed of SEEDS)
    for (const size of SIZES) for (const now of NOWS) yield new SandboxDataset({ seed, size, now });
}

function label(dataset: SandboxDataset, ev: SandboxEvent): string {
  return `seed ${dataset.seed} ${dataset.size} around ${dataset.now.toISOString()}: event ${ev.id} '${ev.name}' (${ev.event.classification})`;
}

/** The control codes of every course run in an event's results: each runner's splits, each relay leg's. */
function courses(dataset: SandboxDataset, ev: SandboxEvent): string[][] {
  const list = dataset.details(ev).resultList;
  if (!list) return [];
  const codes = (splits: readonly SplitTime[]): string[] => splits.map((s) => s.controlCode);
  return list.classes.flatMap((c) => [
    ...c.persons.flatMap((p) => p.results.map((r) => codes(r.splits))),
    ...c.teams.flatMap((t) => t.members.map((m) => codes(m.result.splits))),
  ]);
}

describe('the sandbox calendar makes sense to an orienteer', () => {
  it('races are at the weekend, a few on a Tuesday or Wednesday evening at local or club level', () => {
    const problems: string[] = [];
    let races = 0;
    let weekendRaces = 0;
    let midweekRaces = 0;
    for (const dataset of datasets()) {
      let datasetRaces = 0;
      let datasetWeekend = 0;
      for (const ev of dataset.events) {
        const stages = ev.event.races.filter((r) => r.date !== null).map((r) => local(r.date!));
        for (const [index, at] of stages.entries()) {
          datasetRaces++;
          const weekend = at.weekday === SATURDAY || at.weekday === SUNDAY;
          // A three-day event starts on the Friday (often its sprint) and ends on the Sunday.
          const fridayStage = ev.event.races.length === 3 && index === 0 && at.weekday === FRIDAY;
          if (weekend || fridayStage) {
            datasetWeekend++;
            continue;
          }
          if (!MIDWEEK_EVENINGS.includes(at.weekday)) {
            problems.push(`${label(dataset, ev)}: a race on weekday ${at.weekday} (${at.date})`);
          } else {
            midweekRaces++;
            if (at.hour < 17) problems.push(`${label(dataset, ev)}: a midweek race by day (${at.date} ${at.hour}:00)`);
            if (!['local', 'club'].includes(ev.event.classification))
              problems.push(`${label(dataset, ev)}: a midweek race above local level (${at.date})`);
          }
        }
      }
      // "Mostly": in every dataset, whatever the season.
      if (datasetWeekend < datasetRaces * 0.7)
        problems.push(
          `seed ${dataset.seed} around ${dataset.now.toISOString()}: ${datasetWeekend} of ${datasetRaces} at the weekend`,
        );
      races += datasetRaces;
      weekendRaces += datasetWeekend;
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    expect(races).toBeGreaterThan(SEEDS.length * SIZES.length * NOWS.length * 38);
    // Midweek evenings exist (the rule above is not vacuous), and are the few.
    expect(midweekRaces).toBeGreaterThan(0);
    expect(weekendRaces / races).toBeGreaterThan(0.8);
  });

  it("a multi-day event's stages are on consecutive days, within a few kilometres of each other", () => {
    const problems: string[] = [];
    let multiDay = 0;
    for (const dataset of datasets()) {
      for (const ev of dataset.events) {
        const races = ev.event.races;
        if (races.length < 2) continue;
        multiDay++;
        const first = races[0]!;
        for (const [index, race] of races.entries()) {
          if (index === 0) continue;
          const apart = daysBetween(local(first.date!).date, local(race.date!).date);
          if (apart !== index)
            problems.push(`${label(dataset, ev)}: stage ${index + 1} is ${apart} days after the first`);
          const distance = km(first.position!, race.position!);
          if (distance > 10)
            problems.push(`${label(dataset, ev)}: stage ${index + 1} is ${distance.toFixed(0)} km away`);
        }
        // A multi-day event ends on a Sunday: a weekend, or a long one from the Friday.
        if (local(races.at(-1)!.date!).weekday !== SUNDAY)
          problems.push(`${label(dataset, ev)}: does not end on a Sunday`);
      }
    }
    expect(problems.slice(0, 20), `${problems.length} problems`).toEqual([]);
    expect(multiDay).toBeGreaterThan(SEEDS.length * NOWS.length * 4);
  });

  it('the large event is a Friday-to-Sunday weekend that has ended', () => {
    for (const now of NOWS) {
      const dataset = new SandboxDataset({ seed: 1, size: 'large', now });
      const large = dataset.event(LARGE_EVENT_ID)!;
      const days = large.event.races.map((r) => local(r.date!));
      expect(
        days.map((d) => d.weekday),
        now.toISOString(),
      ).toEqual([FRIDAY, SATURDAY, SUNDAY]);
      expect(Date.parse(large.event.finish!)).toBeLessThan(now.getTime() - 9 * 86_400_000);
      expect(large.hasResults).toBe(true);
    }
  });
});

describe('courses make sense to an orienteer', () => {
  it('no control comes twice in a row on any course run, in single, multi-day and relay results', () => {
    const problems: string[] = [];
    let courseRuns = 0;
    let revisits = 0;
    const shapes = new Set<string>();
    // The large event's 20,000 runners are generated once (seed 1), not for every dataset.
    for (const seed of SEEDS) {
      for (const now of NOWS) {
        const dataset = new SandboxDataset({ seed, size: seed === 1 && now === NOWS[4] ? 'large' : 'small', now });
        for (const ev of dataset.events) {
          if (!ev.hasResults) continue;
          for (const codes of courses(dataset, ev)) {
            if (codes.length === 0) continue;
            courseRuns++;
            shapes.add(ev.shape);
            const twice = codes.findIndex((code, i) => i > 0 && code === codes[i - 1]);
            if (twice >= 0)
              problems.push(`${label(dataset, ev)}: control ${codes[twice]} twice in a row (${codes.join('-')})`);
            if (new Set(codes).size < codes.length) revisits++;
          }
        }
      }
    }
    expect(problems.slice(0, 10), `${problems.length} problems`).toEqual([]);
    expect(courseRuns).toBeGreaterThan(20_000);
    expect([...shapes].sort()).toEqual(['multi', 'relay', 'single']);
    // A control may still come back later in a course (a butterfly, a sprint): that is allowed.
    expect(revisits).toBeGreaterThan(0);
  });
});

describe("the demo's member who links her account and asks for a login link", () => {
  it('is an adult, whose Eventor user name and password the sandbox knows', () => {
    // And the suite's instant, which `npm run test:dates` moves: the demo runs on whatever day it is run.
    for (const now of [...NOWS, testNow()]) {
      const dataset = new SandboxDataset({ seed: 1, now });
      const facts = demoFacts(dataset, now.getTime());
      const person = dataset.person(facts.linkedPersonId)!;
      expect(person.clubId, now.toISOString()).toBe(dataset.homeClub.id);
      expect(yearsOld(person.person.birthDate!, now.getTime()), now.toISOString()).toBeGreaterThanOrEqual(ADULT_AGE);
      expect(dataset.authenticate(facts.linkedUsername, facts.linkedPassword)?.person.id).toBe(person.person.id);
      expect(dataset.clubForKey(facts.apiKey)?.id).toBe(dataset.homeClub.id);
    }
  });

  it('counts years to the birthday, not to the new year', () => {
    const at = Date.parse('2026-06-15T10:00:00Z');
    expect(yearsOld('2005-06-15', at)).toBe(21);
    expect(yearsOld('2005-06-16', at)).toBe(20);
    expect(yearsOld('2005-12-31', at)).toBe(20);
  });
});
