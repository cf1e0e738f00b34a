import { describe, expect, it } from 'vitest';
import {
  addDays,
  compactDay,
  dayWindow,
  expandDay,
  localToday,
  parseDay,
  queryDay,
  weekdayOf,
} from '../../src/time/days.js';
import { instantToLocal, isValidTimeZone, localToInstant, toInstant } from '../../src/time/zones.js';

describe('zones: wall clock <-> instant', () => {
  // Day, clock, zone, instant.
  it.each([
    ['2023-09-26', '17:00:00', 'Europe/Oslo', '2023-09-26T15:00:00Z'],
    ['2026-01-15', '10:00:00', 'Europe/Stockholm', '2026-01-15T09:00:00Z'],
    ['2026-08-22', '23:30:00', 'UTC', '2026-08-22T23:30:00Z'],
    ['2026-05-01', null, 'Europe/Stockholm', '2026-04-30T22:00:00Z'],
    // Around the changes, on both sides.
    ['2026-03-29', '01:59:59', 'Europe/Stockholm', '2026-03-29T00:59:59Z'],
    ['2026-03-29', '03:00:00', 'Europe/Stockholm', '2026-03-29T01:00:00Z'],
    ['2026-03-29', '10:00:00', 'Europe/Stockholm', '2026-03-29T08:00:00Z'],
    ['2026-10-25', '10:00:00', 'Europe/Stockholm', '2026-10-25T09:00:00Z'],
    ['2026-10-24', '23:00:00', 'Europe/Stockholm', '2026-10-24T21:00:00Z'],
  ])('converts local Eventor times to UTC across daylight saving: %s %s in %s', (day, clock, zone, instant) => {
    expect(localToInstant(day, clock, zone)).toBe(instant);
  });

  it.each([
    ['2026-03-29', '02:30:00', 'Europe/Stockholm', '2026-03-29T01:30:00Z'],
    ['2026-10-25', '02:30:00', 'Europe/Stockholm', '2026-10-25T00:30:00Z'],
    ['2026-04-05', '02:30:00', 'Australia/Sydney', '2026-04-04T15:30:00Z'],
  ])(
    'reads a skipped time forward and a repeated time as the earlier instant: %s %s in %s',
    (day, clock, zone, instant) => {
      expect(localToInstant(day, clock, zone)).toBe(instant);
    },
  );

  it('rejects text that is not a date or time', () => {
    expect(localToInstant('2026-13-45x', '10:00:00', 'UTC')).toBeNull();
    expect(localToInstant('2026-05-01', 'noon', 'UTC')).toBeNull();
    expect(() => localToInstant('2026-05-01', '10:00:00', 'Mars/Olympus')).toThrow(RangeError);
  });

  it('converts instants back to local date and clock', () => {
    expect(instantToLocal('2023-09-26T15:00:00Z', 'Europe/Oslo')).toEqual({ date: '2023-09-26', clock: '17:00:00' });
    expect(instantToLocal(new Date('2026-01-01T23:30:00Z'), 'Europe/Stockholm')).toEqual({
      date: '2026-01-02',
      clock: '00:30:00',
    });
  });

  it("reads Sydney's changes the same way (southern summer: forward in October, back in April)", () => {
    // 2026-10-04 02:00 AEST -> 03:00 AEDT: 02:30 is skipped and reads as 03:30 AEDT.
    expect(localToInstant('2026-10-04', '02:30:00', 'Australia/Sydney')).toBe('2026-10-03T16:30:00Z');
    expect(localToInstant('2026-10-04', '01:59:59', 'Australia/Sydney')).toBe('2026-10-03T15:59:59Z');
    expect(localToInstant('2026-10-04', '03:00:00', 'Australia/Sydney')).toBe('2026-10-03T16:00:00Z');
    // 2026-04-05 03:00 AEDT -> 02:00 AEST: 02:30 happens twice, the earlier (AEDT) wins.
    expect(localToInstant('2026-04-05', '03:00:00', 'Australia/Sydney')).toBe('2026-04-04T17:00:00Z');
    expect(localToInstant('2026-01-10', '10:00:00', 'Australia/Sydney')).toBe('2026-01-09T23:00:00Z');
    expect(instantToLocal('2026-04-04T15:30:00Z', 'Australia/Sydney')).toEqual({
      date: '2026-04-05',
      clock: '02:30:00',
    });
    expect(instantToLocal('2026-04-04T16:30:00Z', 'Australia/Sydney')).toEqual({
      date: '2026-04-05',
      clock: '02:30:00',
    });
  });

  it('makes instants of whole seconds and knows which zones exist', () => {
    expect(toInstant(Date.parse('2026-05-01T10:00:00.999Z'))).toBe('2026-05-01T10:00:00Z');
    expect(isValidTimeZone('Europe/Stockholm')).toBe(true);
    expect(isValidTimeZone('Mars/Olympus')).toBe(false);
    expect(() => instantToLocal('2026-05-01T10:00:00Z', 'Mars/Olympus')).toThrow(RangeError);
  });
});

describe('days: calendar days in a zone', () => {
  it("gives today in the zone, not in UTC or the process's zone", () => {
    const lateEvening = new Date('2026-01-01T23:30:00Z');
    expect(localToday(lateEvening, 'Europe/Stockholm')).toBe('2026-01-02');
    expect(localToday(lateEvening, 'UTC')).toBe('2026-01-01');
    expect(localToday(new Date('2026-04-04T13:30:00Z'), 'Australia/Sydney')).toBe('2026-04-05');
    expect(localToday(new Date('2026-04-04T12:30:00Z'), 'Australia/Sydney')).toBe('2026-04-04');
  });

  it.each([
    ['2026-02-30', null],
    ['2027-02-29', null],
    ['2028-02-29', '2028-02-29'],
    ['2026-13-01', null],
    ['2026-00-10', null],
    ['2026-04-31', null],
    ['2026-5-1', null],
    ['tomorrow', null],
    [' 2026-11-22 ', '2026-11-22'],
    ['1899-12-31', null],
    ['1900-01-01', '1900-01-01'],
    ['2999-12-31', '2999-12-31'],
    ['3000-01-01', null],
  ])("takes only real calendar dates within Eventor's years: %j", (text, day) => {
    expect(parseDay(text)).toBe(day);
  });

  it.each([
    ['2026-11-22', 0, '2026-11-22'],
    ['2026-11-22', 13, '2026-12-05'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2027-02-28', 1, '2027-03-01'],
    ['2026-03-28', 1, '2026-03-29'],
    ['2026-03-29', 1, '2026-03-30'],
    ['2026-10-25', -1, '2026-10-24'],
    ['2026-11-22', 365, '2027-11-22'],
  ])('adds calendar days over months, years, leap days and changes of the clocks: %s + %i', (day, days, sum) => {
    expect(addDays(day, days)).toBe(sum);
  });

  it('names the day of the week of a calendar day, Sunday 0 to Saturday 6', () => {
    expect(weekdayOf('2026-11-22')).toBe(0);
    expect(weekdayOf('2026-11-24')).toBe(2);
    expect(weekdayOf('2026-10-24')).toBe(6);
    expect(weekdayOf('2028-02-29')).toBe(2);
  });

  it('carries days in custom ids as YYYYMMDD and reads back only real dates', () => {
    expect(compactDay('2026-11-22')).toBe('20261122');
    expect(expandDay('20261122')).toBe('2026-11-22');
    expect(expandDay(compactDay('2028-02-29'))).toBe('2028-02-29');
    expect(expandDay('20260230')).toBeNull();
    expect(expandDay('30000101')).toBeNull();
    expect(expandDay('2026112')).toBeNull();
    expect(expandDay('2026-11-22')).toBeNull();
    expect(expandDay(undefined)).toBeNull();
  });

  // First day, last day, zone, and the window's first and last second.
  it.each([
    ['2026-11-22', '2026-11-22', 'Europe/Stockholm', '2026-11-21T23:00:00Z', '2026-11-22T22:59:59Z'],
    ['2026-11-22', '2026-12-05', 'Europe/Stockholm', '2026-11-21T23:00:00Z', '2026-12-05T22:59:59Z'],
    ['2026-03-29', '2026-03-29', 'Europe/Stockholm', '2026-03-28T23:00:00Z', '2026-03-29T21:59:59Z'],
    ['2026-10-25', '2026-10-25', 'Europe/Stockholm', '2026-10-24T22:00:00Z', '2026-10-25T22:59:59Z'],
    ['2026-04-05', '2026-04-05', 'Australia/Sydney', '2026-04-04T13:00:00Z', '2026-04-05T13:59:59Z'],
    ['2026-10-04', '2026-10-04', 'Australia/Sydney', '2026-10-03T14:00:00Z', '2026-10-04T12:59:59Z'],
    // Fourteen hours ahead of UTC: the local day lies mostly on the UTC day before.
    ['2026-01-01', '2026-01-01', 'Pacific/Kiritimati', '2025-12-31T10:00:00Z', '2026-01-01T09:59:59Z'],
    ['2026-01-01', '2026-01-01', 'UTC', '2026-01-01T00:00:00Z', '2026-01-01T23:59:59Z'],
  ])(
    'bounds whole local days with their first and last second, 23 and 25 hour days included: %s to %s in %s',
    (first, last, zone, from, to) => {
      expect(dayWindow(first, last, zone)).toEqual({ from, to });
    },
  );

  it('asks Eventor for the UTC day of an instant', () => {
    expect(queryDay(Date.parse('2026-01-01T23:30:00Z'))).toBe('2026-01-01');
    expect(queryDay(new Date('2026-01-02T00:00:00Z'))).toBe('2026-01-02');
    expect(queryDay(Date.parse('2028-02-29T12:00:00Z'))).toBe('2028-02-29');
  });
});

describe('days: answers kept per arguments', () => {
  it('gives the same answer the second time, per zone, and a shared window cannot be changed by a caller', () => {
    const stockholm = dayWindow('2026-10-25', '2026-10-25', 'Europe/Stockholm');
    const sydney = dayWindow('2026-10-25', '2026-10-25', 'Australia/Sydney');
    expect(dayWindow('2026-10-25', '2026-10-25', 'Europe/Stockholm')).toEqual(stockholm);
    expect(sydney).not.toEqual(stockholm);
    // The day the clocks go back in Stockholm has 25 hours.
    expect(Date.parse(stockholm.to) - Date.parse(stockholm.from)).toBe(25 * 3_600_000 - 1000);
    expect(Object.isFrozen(stockholm)).toBe(true);
    expect(() => {
      (stockholm as { from: string }).from = 'changed';
    }).toThrow(TypeError);
    expect(dayWindow('2026-10-25', '2026-10-25', 'Europe/Stockholm').from).toBe('2026-10-24T22:00:00Z');

    for (let i = 0; i < 2; i++) {
      expect(addDays('2026-02-27', 2)).toBe('2026-03-01');
      expect(addDays('2028-02-27', 2)).toBe('2028-02-29');
      expect(parseDay('2026-02-30')).toBeNull();
      expect(parseDay(' 2026-02-28 ')).toBe('2026-02-28');
      expect(weekdayOf('2026-11-24')).toBe(2);
    }
  });
});
