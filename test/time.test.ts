import { describe, expect, it } from 'vitest';
import { formatElapsed, formatQueryDateTime, instantToLocal, localToInstant, parseElapsed, parseHashTableTime } from '../src/eventor/time.js';

describe('time conversions', () => {
  it('converts local Eventor times to UTC across daylight saving', () => {
    expect(localToInstant('2023-09-26', '17:00:00', 'Europe/Oslo')).toBe('2023-09-26T15:00:00Z');
    expect(localToInstant('2026-01-15', '10:00:00', 'Europe/Stockholm')).toBe('2026-01-15T09:00:00Z');
    expect(localToInstant('2026-08-22', '23:30:00', 'UTC')).toBe('2026-08-22T23:30:00Z');
    expect(localToInstant('2026-05-01', null, 'Europe/Stockholm')).toBe('2026-04-30T22:00:00Z');
    // Around the changes, on both sides.
    expect(localToInstant('2026-03-29', '01:59:59', 'Europe/Stockholm')).toBe('2026-03-29T00:59:59Z');
    expect(localToInstant('2026-03-29', '03:00:00', 'Europe/Stockholm')).toBe('2026-03-29T01:00:00Z');
    expect(localToInstant('2026-03-29', '10:00:00', 'Europe/Stockholm')).toBe('2026-03-29T08:00:00Z');
    expect(localToInstant('2026-10-25', '10:00:00', 'Europe/Stockholm')).toBe('2026-10-25T09:00:00Z');
    expect(localToInstant('2026-10-24', '23:00:00', 'Europe/Stockholm')).toBe('2026-10-24T21:00:00Z');
  });

  it('reads a skipped time forward and a repeated time as the earlier instant', () => {
    expect(localToInstant('2026-03-29', '02:30:00', 'Europe/Stockholm')).toBe('2026-03-29T01:30:00Z');
    expect(localToInstant('2026-10-25', '02:30:00', 'Europe/Stockholm')).toBe('2026-10-25T00:30:00Z');
    expect(localToInstant('2026-04-05', '02:30:00', 'Australia/Sydney')).toBe('2026-04-04T15:30:00Z');
  });

  it('rejects text that is not a date or time', () => {
    expect(localToInstant('2026-13-45x', '10:00:00', 'UTC')).toBeNull();
    expect(localToInstant('2026-05-01', 'noon', 'UTC')).toBeNull();
    expect(() => localToInstant('2026-05-01', '10:00:00', 'Mars/Olympus')).toThrow(RangeError);
  });

  it('converts instants back to local date and clock', () => {
    expect(instantToLocal('2023-09-26T15:00:00Z', 'Europe/Oslo')).toEqual({ date: '2023-09-26', clock: '17:00:00' });
    expect(instantToLocal(new Date('2026-01-01T23:30:00Z'), 'Europe/Stockholm')).toEqual({ date: '2026-01-02', clock: '00:30:00' });
  });

  it('formats query dates in UTC the way Eventor reads them', () => {
    expect(formatQueryDateTime('2026-05-01')).toBe('2026-05-01 00:00:00');
    expect(formatQueryDateTime('2026-05-01T10:00:00+02:00')).toBe('2026-05-01 08:00:00');
    expect(formatQueryDateTime('2026-05-01 10:00:00')).toBe('2026-05-01 10:00:00');
    expect(formatQueryDateTime(new Date('2026-05-01T10:00:00Z'))).toBe('2026-05-01 10:00:00');
    expect(formatQueryDateTime('tomorrow')).toBeNull();
  });

  it('reads HashTableEntry times (UTC, dots allowed)', () => {
    expect(parseHashTableTime('2023-09-25 21.59.59;EventClass,EventRaces')).toBe('2023-09-25T21:59:59Z');
    expect(parseHashTableTime('2026-05-12 18:17:24')).toBe('2026-05-12T18:17:24Z');
    expect(parseHashTableTime('soon')).toBeNull();
  });

  it('parses and formats native elapsed times', () => {
    expect(parseElapsed('46:33')).toBe(2793);
    expect(parseElapsed('1:06:45')).toBe(4005);
    expect(parseElapsed('0:00')).toBe(0);
    expect(parseElapsed('')).toBeNull();
    expect(parseElapsed('fast')).toBeNull();
    expect(formatElapsed(2793)).toBe('46:33');
    expect(formatElapsed(4005)).toBe('1:06:45');
    expect(formatElapsed(0)).toBe('0:00');
  });
});
