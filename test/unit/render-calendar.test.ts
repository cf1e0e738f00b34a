/**
 * A race as a Discord scheduled event's fields: within Discord's limits (name 100, description
 * 1,000, location 100) whatever Eventor sends, cut only between words, lines left out whole, the
 * Eventor link always last, in the server's language.
 */
import { describe, expect, it } from 'vitest';
import {
  cutAtWord,
  DEFAULT_EVENT_DURATION_MS,
  describesEvent,
  renderScheduledEvent,
  SCHEDULED_EVENT_LIMITS,
  wholeLines,
} from '../../src/render/calendar.js';
import { ctx, event } from '../support/render-fixtures.js';

const HOUR = 3_600_000;
const LINK = 'https://eventor.orientering.se/Events/Show/1001';

describe('a race as a scheduled event', () => {
  it('start and end from Eventor, the map as location, the link last', () => {
    const fields = renderScheduledEvent(event(), 7, ctx('en', { now: new Date('2026-11-01T00:00:00Z') }))!;
    expect(fields.name).toBe('Höstsprinten');
    expect(fields.scheduledStartTime).toBe('2026-12-05T09:00:00.000Z');
    expect(fields.scheduledEndTime).toBe('2026-12-05T15:00:00.000Z');
    expect(fields.location).toMatch(/^https:\/\/www\.openstreetmap\.org\/\?mlat=59\.32930/);
    const lines = fields.description.split('\n');
    expect(lines.at(-1)).toBe(LINK);
    expect(fields.description).toContain('7 from the club have entered');
    expect(fields.description).toContain('Entry deadline:');
    expect(fields.description).toContain('Late entry until:');
    expect(describesEvent(fields.description, LINK)).toBe(true);
    expect(describesEvent(fields.description, `${LINK}0`)).toBe(false);
  });

  it('without a finish after the start: the last race plus the default length; without a position: the Eventor link', () => {
    const fields = renderScheduledEvent(
      event({ finish: null, races: [{ ...event().races[0]!, position: null }] }),
      0,
      ctx('sv'),
    )!;
    expect(Date.parse(fields.scheduledEndTime) - Date.parse(fields.scheduledStartTime)).toBe(DEFAULT_EVENT_DURATION_MS);
    expect(fields.location).toBe(LINK);
    expect(fields.description).toContain('Ingen från klubben har anmält sig än');
    expect(renderScheduledEvent(event({ start: null }), 0, ctx())).toBeNull();
    // A finish before the start counts as none.
    const odd = renderScheduledEvent(event({ finish: '2026-12-05T08:00:00Z' }), 0, ctx())!;
    expect(Date.parse(odd.scheduledEndTime)).toBe(Date.parse('2026-12-05T09:00:00Z') + DEFAULT_EVENT_DURATION_MS);
    expect(DEFAULT_EVENT_DURATION_MS).toBe(3 * HOUR);
  });

  it('a long name is cut between words, mentions broken; a cancelled race says so', () => {
    const long = `@everyone ${'Långdistans '.repeat(20)}`;
    const fields = renderScheduledEvent(event({ name: long, status: 'canceled' }), 0, ctx('nb'))!;
    expect(fields.name.length).toBeLessThanOrEqual(SCHEDULED_EVENT_LIMITS.name);
    expect(fields.name.endsWith('Långdistans…')).toBe(true);
    expect(fields.name).not.toContain('@everyone');
    expect(fields.description.split('\n')[0]).toBe('❌ Avlyst i Eventor');
  });

  it('the description stays within 1,000 characters with whole lines, the link kept', () => {
    const organisers = Array.from({ length: 40 }, (_, i) => ({
      id: String(i),
      name: `[Klubb ${i}](https://evil.example) Orienteringsklubb`,
      shortName: null,
      countryCode: null,
    }));
    const deadlines = Array.from({ length: 60 }, (_, i) => new Date(Date.parse('2026-11-01T00:00:00Z') + i * HOUR * 5));
    const fields = renderScheduledEvent(
      event({ organisers, entryDeadlines: deadlines.map((d) => d.toISOString()) }),
      3,
      ctx('en', { now: new Date('2026-10-01T00:00:00Z') }),
    )!;
    expect(fields.description.length).toBeLessThanOrEqual(SCHEDULED_EVENT_LIMITS.description);
    expect(fields.description.split('\n').at(-1)).toBe(LINK);
    // The organisers' line is cut between words; their masked links are escaped.
    expect(fields.description).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
    expect(fields.description).toContain('\\[Klubb 0\\]');
    for (const line of fields.description.split('\n'))
      expect(line === LINK || /^(Organiser|Entry deadline|Late entry|\d+ from the club)/.test(line)).toBe(true);
  });

  it('deadlines already passed are left out', () => {
    const fields = renderScheduledEvent(event(), 0, ctx('en', { now: new Date('2026-11-25T00:00:00Z') }))!;
    expect(fields.description).not.toContain('Entry deadline:');
    expect(fields.description).toContain('Late entry until:');
  });
});

describe('cutting', () => {
  it('cutAtWord keeps whole words and marks the cut', () => {
    expect(cutAtWord('short', 10)).toBe('short');
    expect(cutAtWord('one two three four', 12)).toBe('one two…');
    expect(cutAtWord('x'.repeat(30), 10)).toBe(`${'x'.repeat(9)}…`);
    expect(cutAtWord('one two three four', 12).length).toBeLessThanOrEqual(12);
  });

  it('wholeLines leaves out lines that do not fit, never part of one', () => {
    expect(wholeLines(['aaaa', 'bbbbbbbbbb', 'cc'], 8)).toBe('aaaa\ncc');
    expect(wholeLines([], 8)).toBe('');
  });
});
