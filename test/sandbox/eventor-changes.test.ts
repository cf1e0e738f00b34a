/**
 * The sandbox Eventor's organiser changes on its clock (`dataset.changeEvent`): an event's name,
 * date and status change at a planned moment, and reads over HTTP show the old event before it
 * and the changed one after it, with the modify date of that moment.
 */
import { XMLParser } from 'fast-xml-parser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';

const NOW = new Date('2026-03-18T10:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const parser = new XMLParser({
  parseTagValue: false,
  isArray: (name, jpath) => (name === 'Event' || name === 'EventRace') && jpath !== name,
});
// The test reads parsed XML of the event's shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type X = Record<string, any>;

/** A local date `YYYY-MM-DD` plus `days`. */
const plusDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

describe('sandbox Eventor: an organiser changes an event on the clock', () => {
  let clockMs: number;
  let sb: SandboxEventor;

  beforeEach(async () => {
    clockMs = NOW.getTime();
    sb = await startSandboxEventor({ seed: 1, now: () => new Date(clockMs), dataAround: NOW });
  });
  afterEach(async () => {
    await sb.close();
  });

  const read = async (path: string): Promise<X> => {
    const res = await fetch(`${sb.baseUrl}${path}`, { headers: { ApiKey: sb.apiKey } });
    const text = await res.text();
    expect(res.status, `${path}: ${text.slice(0, 200)}`).toBe(200);
    return parser.parse(text) as X;
  };
  const eventOf = async (id: string): Promise<X> => (await read(`/event/${id}`))['Event'] as X;
  const listed = async (query: string): Promise<X[]> =>
    ((await read(`/events?${query}`))['EventList'].Event ?? []) as X[];
  /** A coming event of several days that is open for entry. */
  const comingMultiDay = (): SandboxEvent => {
    const ev = sb.dataset.events.find(
      (e) => e.shape === 'multi' && e.event.statusId === '5' && Date.parse(e.event.start!) > clockMs,
    );
    expect(ev, 'the dataset has a coming multi-day event open for entry').toBeDefined();
    return ev!;
  };

  it('shows the new name, dates and status from the planned moment on, not before', async () => {
    const ev = comingMultiDay();
    const before = await eventOf(ev.id);
    const firstDay = before.StartDate.Date as string;
    const changeAt = new Date(clockMs + 2 * HOUR);
    sb.dataset.changeEvent(ev.id, { name: 'Påskträffen (flyttad)', date: plusDays(firstDay, 14) }, changeAt);
    sb.dataset.changeEvent(ev.id, { statusId: '10' }, new Date(clockMs + 3 * HOUR));

    clockMs += HOUR;
    expect(await eventOf(ev.id)).toEqual(before);

    clockMs += HOUR;
    const moved = await eventOf(ev.id);
    expect(moved.Name).toBe('Påskträffen (flyttad)');
    expect(moved.EventStatusId).toBe(before.EventStatusId);
    // Every day moves by the same two weeks at the same local time, whatever the clocks did meanwhile.
    for (const key of ['StartDate', 'FinishDate'] as const) {
      expect(moved[key]).toEqual({ Date: plusDays(before[key].Date as string, 14), Clock: before[key].Clock });
    }
    expect((moved.EventRace as X[]).length).toBeGreaterThan(1);
    (moved.EventRace as X[]).forEach((race, i) => {
      const was = (before.EventRace as X[])[i]!;
      expect(race.RaceDate).toEqual({ Date: plusDays(was.RaceDate.Date as string, 14), Clock: was.RaceDate.Clock });
    });
    // The modify date is the moment of the change (local time: no TimeZone header).
    expect(moved.ModifyDate).toEqual({ Date: '2026-03-18', Clock: '13:00:00' });

    clockMs += HOUR;
    const cancelled = await eventOf(ev.id);
    expect(cancelled.EventStatusId).toBe('10');
    expect(cancelled.Name).toBe('Påskträffen (flyttad)');
    // The list shows it too, and finds it by the modify date of the change (13:00 UTC: query dates are UTC).
    const [inList] = await listed(`eventIds=${ev.id}`);
    expect([inList?.Name, inList?.EventStatusId]).toEqual(['Påskträffen (flyttad)', '10']);
    const modified = await listed('fromModifyDate=2026-03-18 12:59:00&toModifyDate=2026-03-18 13:01:00');
    expect(modified.map((e) => e.EventId)).toEqual([ev.id]);
    // A list for the old dates no longer has it; one for the new dates has.
    const oldWeek = `fromDate=${firstDay}&toDate=${plusDays(firstDay, 1)}`;
    expect((await listed(oldWeek)).map((e) => e.EventId)).not.toContain(ev.id);
    const newWeek = `fromDate=${plusDays(firstDay, 14)}&toDate=${plusDays(firstDay, 15)}`;
    expect((await listed(newWeek)).map((e) => e.EventId)).toContain(ev.id);
  });

  it('applies a change without a moment at once, and refuses a bad one without planning anything', async () => {
    const ev = comingMultiDay();
    sb.dataset.changeEvent(ev.id, { name: 'Renamed now' });
    expect((await eventOf(ev.id)).Name).toBe('Renamed now');

    expect(() => sb.dataset.changeEvent('99999999', { name: 'x' })).toThrow(/no sandbox event 99999999/);
    expect(() => sb.dataset.changeEvent(ev.id, { name: '  ' })).toThrow(/cannot be empty/);
    expect(() => sb.dataset.changeEvent(ev.id, { date: '2026-02-30x' })).toThrow(/not a date/);
    expect(() => sb.dataset.changeEvent(ev.id, { statusId: '12' as '10' })).toThrow(/no EventStatusId 12/);
    clockMs += DAY;
    const after = await eventOf(ev.id);
    expect([after.Name, after.EventStatusId]).toEqual(['Renamed now', '5']);
  });
});
