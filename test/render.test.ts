import { describe, expect, it } from 'vitest';
import {
  discordTimestamp, escapeEventorText, fitPayload, formatPlace, formatStatus, renderActivities, renderActivity, renderClubEntries,
  renderClubEntriesOverview, renderClubResults, renderClubStartList, renderEventCard, renderEventList, renderPersonResults,
  renderPersonStarts, splitRows, splitTable, truncate, type MessagePayload,
} from '../src/render/index.js';
import {
  activity, classResult, CLUB, ctx, entry, errorsOf, event, eventClass, OTHER, personResult, raceResult, resultList, startList, textOf,
} from './render-fixtures.js';

function valid(payloads: MessagePayload | MessagePayload[]): MessagePayload[] {
  const list = Array.isArray(payloads) ? payloads : [payloads];
  expect(list.length).toBeGreaterThan(0);
  for (const payload of list) {
    expect(errorsOf(payload)).toEqual([]);
    expect(payload.allowedMentions).toEqual({ parse: [] });
  }
  return list;
}

describe('shared pieces', () => {
  it('formats a Discord timestamp for a known instant', () => {
    expect(discordTimestamp('2026-05-01T10:00:00Z', 'D')).toBe('<t:1777629600:D>');
    expect(discordTimestamp('2026-05-01T10:00:00Z', 'R')).toBe('<t:1777629600:R>');
  });

  it('formats places and statuses', () => {
    expect(formatPlace(1, { medals: true })).toBe('🥇');
    expect(formatPlace(3, { medals: true })).toBe('🥉');
    expect(formatPlace(4, { medals: true })).toBe('4.');
    expect(formatPlace(null)).toBe('');
    expect(formatStatus('MissingPunch', 'en')).toBe('MP');
    expect(formatStatus('MissingPunch', 'sv')).toBe('Felst.');
    expect(formatStatus('DidNotFinish', 'nb')).toBe('Brutt');
    expect(formatStatus('DidNotStart', 'sv')).toBe('Ej start');
    expect(formatStatus('OK', 'en')).toBe('');
  });

  it('escapes markdown and neutralises mentions and control characters', () => {
    const text = escapeEventorText('**Bold** _x_ @everyone @here <@123> <@&456> <#789> ~~s~~ ||sp|| `code`\u0007\u202Eend\n> quote\n# head');
    expect(text).not.toMatch(/(?<!\\)\*\*/);
    expect(text).not.toContain('@everyone');
    expect(text).not.toContain('@here');
    expect(text).not.toMatch(/<[@#]/);
    expect(text).not.toContain('\u0007');
    expect(text).not.toContain('\u202E');
    expect(text).toContain('\\`code\\`');
    expect(text).toContain('\\> quote');
    expect(text).toContain('\\# head');
    expect(text).toContain('\\~\\~s\\~\\~');
  });

  it('truncates with an ellipsis and never splits a surrogate pair', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(truncate('ab🥇cd', 4)).toBe('ab…');
  });

  it('fitPayload cuts every limit and closes a cut code block', () => {
    const long = 'x'.repeat(5000);
    const payload = fitPayload({
      content: long,
      embeds: Array.from({ length: 12 }, () => ({ title: long, description: `\`\`\`\n${long}`, fields: Array.from({ length: 30 }, () => ({ name: long, value: long })), footer: { text: long } })),
      components: Array.from({ length: 7 }, (_, r) => ({ type: 1, components: Array.from({ length: 7 }, (_, b) => ({ type: 2, style: 2, custom_id: `b${r}-${b}`, label: long })) })),
    } as never);
    valid(payload);
    expect(payload.embeds!.length).toBeLessThanOrEqual(10);
    expect(payload.embeds![0]!.description!.endsWith('```')).toBe(true);
    expect(payload.components!.length).toBe(5);
    expect(payload.components![0]!.components.length).toBe(5);
  });
});

describe('splits', () => {
  const result = raceResult({
    time: 600,
    splits: [
      { controlCode: '31', time: 100, status: 'OK' },
      { controlCode: '99', time: 130, status: 'Additional' },
      { controlCode: '32', time: null, status: 'Missing' },
      { controlCode: '33', time: 400, status: 'OK' },
      { controlCode: '34', time: 520, status: 'OK' },
    ],
  });

  it('computes legs: Missing as -, Additional skipped, finish leg = total − last split', () => {
    expect(splitRows(result)).toEqual([
      { number: 1, code: '31', leg: 100, cumulative: 100 },
      { number: 2, code: '32', leg: null, cumulative: null },
      { number: 3, code: '33', leg: null, cumulative: 400 },
      { number: 4, code: '34', leg: 120, cumulative: 520 },
      { number: null, code: '', leg: 80, cumulative: 600 },
    ]);
  });

  it('is a narrow code block', () => {
    const table = splitTable(result, 'sv');
    const lines = table.split('\n');
    expect(lines[0]).toBe('```');
    expect(lines.at(-1)).toBe('```');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(32);
    expect(table).toContain(' 1  31        1:40     1:40');
    expect(table).toContain(' 2  32           -        -');
    expect(table).toContain(' 4  34        2:00     8:40');
    expect(table).toContain('    Mål       1:20    10:00');
    expect(lines[1]).toContain('Sträcka');
  });
});
