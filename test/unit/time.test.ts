import { describe, expect, it } from 'vitest';
import { formatElapsed, formatQueryDateTime, parseElapsed, parseHashTableTime } from '../../src/eventor/time.js';

describe('Eventor time formats', () => {
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
