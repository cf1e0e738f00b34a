/**
 * The live board and the finish messages (src/render/live.ts): what they say in each language,
 * and that a hostile name from LiveResultat (mentions, markdown, 5,000 characters) and a board of
 * hundreds of runners stay within Discord's limits, shown as text.
 */
import { describe, expect, it } from 'vitest';
import { type LiveBoardView, ordinalPlace, renderFinishMessage, renderLiveBoard } from '../../src/render/live.js';
import { liveRunner } from '../support/live-runners.js';
import { ctx, NOW, textOf, validPayloads } from '../support/render-fixtures.js';

const runner = liveRunner;

const HOME = runner({ status: 'finished', time: 2135, place: 2, behind: 41 });
const OUT = runner({
  name: 'Ebba Ekdahl',
  className: 'D12',
  start: 36_000,
  radios: [
    { code: 1031, time: 686, place: 1, behind: 0 },
    { code: 2056, time: 1200, place: 3, behind: 116 },
    { code: 1099, time: null, place: null, behind: null },
  ],
});
const JUST_STARTED = runner({ name: 'Greta Mæhle', className: 'D12', start: 37_000 });
const WAITING = runner({ name: 'Olof Nordin', className: 'H12', start: 40_000 });
const MP = runner({ name: 'Hedda Solheim', className: 'D20/21', status: 'mp' });
const DNF = runner({ name: 'Jonas Rydén', className: 'H20/21', status: 'dnf' });

const view = (over: Partial<LiveBoardView> = {}): LiveBoardView => ({
  competition: { id: 50001, name: 'Älvkullen DM-sprinten' },
  runners: [HOME, OUT, JUST_STARTED, WAITING, MP, DNF],
  secondsIntoDay: 37_500,
  final: false,
  readAt: NOW,
  ...over,
});

describe('the live board', () => {
  it('shows each runner by class: the result, the last radio control, the start time or the status; and the counts', () => {
    const [payload] = validPayloads(
      renderLiveBoard(view({ liveUrl: 'https://liveresultat.orientering.se/followfull.php?comp=50001' }), ctx('en')),
    );
    const embed = payload!.embeds![0]!;
    expect(embed.title).toBe('Live: Älvkullen DM-sprinten');
    expect(embed.url).toBe('https://liveresultat.orientering.se/followfull.php?comp=50001');
    const lines = embed.description!.split('\n');
    expect(lines[0]).toBe('Out: 2 · Home: 3 · To start: 1');
    expect(lines).toContain('**D10**');
    expect(lines).toContain('**2.** Astrid Lövgren · 35:35 +0:41');
    expect(lines).toContain('🏃 Ebba Ekdahl · control 56: 3. +1:56');
    expect(lines).toContain('🏃 Greta Mæhle · *on the course*');
    expect(lines).toContain('Olof Nordin · starts 11:06:40');
    expect(lines).toContain('Hedda Solheim · **MP**');
    expect(lines).toContain('Jonas Rydén · **DNF**');
    expect(lines.at(-1)).toBe(`Updated <t:${NOW.getTime() / 1000}:R>`);
    expect(embed.footer!.text).toBe('From LiveResultat, competition 50001');
  });

  it('says when it is final, linking the results post, and when the source is down', () => {
    const final = renderLiveBoard(
      view({ final: true, resultsUrl: 'https://discord.com/channels/1/2/3', sourceDown: true }),
      ctx('sv'),
    );
    const embed = validPayloads(final)[0]!.embeds![0]!;
    expect(embed.title).toBe('Slutligt: Älvkullen DM-sprinten');
    expect(embed.description).toContain(
      '**Slutligt. Officiella resultat: [resultatinlägget](https://discord.com/channels/1/2/3)**',
    );
    // Final wins over "down": the board will not change again either way.
    expect(embed.description).not.toContain('svarar inte');
    const down = validPayloads(renderLiveBoard(view({ sourceDown: true }), ctx('nb')))[0]!.embeds![0]!;
    expect(down.description).toContain('*Liveresultat svarer ikke: dette er det sist leste.*');
    expect(down.description).toContain('Ute: 2 · I mål: 3 · Venter på start: 1');
    expect(down.description).toContain('Hedda Solheim · **Feilst.**');
  });

  it('an empty board says so', () => {
    const embed = validPayloads(renderLiveBoard(view({ runners: [] }), ctx('en')))[0]!.embeds![0]!;
    expect(embed.description).toContain('No runners of the club in this competition yet.');
  });

  it('hostile names are shown as text: no mention, no markdown, no link, cut', () => {
    const hostile = '@everyone <@123> **bold** [x](https://evil.example) `code` ||spoiler||\u202Eevil'.padEnd(
      5000,
      '*',
    );
    const payload = renderLiveBoard(
      view({
        competition: { id: 1, name: hostile },
        runners: [
          runner({
            name: hostile,
            className: hostile,
            club: hostile,
            status: 'finished',
            time: 60,
            place: 1,
            behind: 0,
          }),
        ],
        liveUrl: 'javascript:alert(1)',
      }),
      ctx('en'),
    );
    const [valid] = validPayloads(payload);
    const text = textOf(valid!);
    expect(text).not.toContain('@everyone');
    expect(text).not.toMatch(/<@\d/);
    expect(text).not.toContain('**bold**');
    // The brackets are escaped, so no masked link forms.
    expect(text).not.toMatch(/(?<!\\)\]\(https:\/\/evil/);
    expect(text).toContain('\\[x\\](https://evil.example)');
    expect(text).not.toContain('\u202E');
    expect(valid!.embeds![0]!.url).toBeUndefined();
    expect(valid!.embeds![0]!.title!.length).toBeLessThanOrEqual(256);
  });

  it('hundreds of runners stay within the limits, the rest counted', () => {
    const many = Array.from({ length: 600 }, (_, i) =>
      runner({
        name: `Runner ${i} ${'ÅÄÖ'.repeat(20)}`,
        className: `H${i % 40}`,
        status: 'finished',
        time: 1000 + i,
        place: i + 1,
        behind: i,
      }),
    );
    const embed = validPayloads(renderLiveBoard(view({ runners: many }), ctx('en')))[0]!.embeds![0]!;
    expect(embed.description!.length).toBeLessThanOrEqual(4096);
    const more = /…and (\d+) more/.exec(embed.description!);
    expect(more).not.toBeNull();
    const shown = embed.description!.split('\n').filter((line) => line.includes('Runner ')).length;
    expect(shown + Number(more![1])).toBe(600);
  });
});

describe('a finish message', () => {
  it('"Astrid, D10: 2nd, +0:41", in each language', () => {
    expect(renderFinishMessage(HOME, ctx('en'))!.content).toBe('Astrid, D10: 2nd, +0:41');
    expect(renderFinishMessage(HOME, ctx('sv'))!.content).toBe('Astrid, D10: 2:a, +0:41');
    expect(renderFinishMessage(HOME, ctx('nb'))!.content).toBe('Astrid, D10: 2., +0:41');
    expect(renderFinishMessage({ ...HOME, name: 'Lövgren, Astrid' }, ctx('en'))!.content).toBe(
      'Astrid, D10: 2nd, +0:41',
    );
    expect(renderFinishMessage(HOME, ctx('en'), { fullName: true, corrected: true })!.content).toBe(
      'Astrid Lövgren, D10: 2nd, +0:41 (corrected)',
    );
  });

  it('the winner with the time, a failed run with its status, nothing before the finish', () => {
    const winner = { ...HOME, place: 1, behind: 0 };
    expect(renderFinishMessage(winner, ctx('en'))!.content).toBe('Astrid, D10: 1st, 35:35');
    expect(renderFinishMessage({ ...MP, name: 'Hedda Solheim' }, ctx('sv'))!.content).toBe('Hedda, D20/21: Felst.');
    expect(renderFinishMessage(DNF, ctx('en'))!.content).toBe('Jonas, H20/21: DNF');
    expect(renderFinishMessage(OUT, ctx('en'))).toBeNull();
    expect(renderFinishMessage(runner({ status: 'dns' }), ctx('en'))).toBeNull();
  });

  it('a hostile name is shown as text, within the limits', () => {
    const payload = renderFinishMessage(
      { ...HOME, name: '@everyone'.padEnd(5000, '_'), className: '<@&1>' },
      ctx('en'),
    )!;
    const text = validPayloads(payload)[0]!.content!;
    expect(text).not.toContain('@everyone');
    expect(text).not.toMatch(/<@&\d/);
    expect(text.length).toBeLessThan(400);
  });

  it('ordinals as each language writes them', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101].map((n) => ordinalPlace(n, 'en'))).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '23rd',
      '101st',
    ]);
    expect([1, 2, 3, 11, 12, 21, 22].map((n) => ordinalPlace(n, 'sv'))).toEqual([
      '1:a',
      '2:a',
      '3:e',
      '11:e',
      '12:e',
      '21:a',
      '22:a',
    ]);
    expect([1, 2, 3].map((n) => ordinalPlace(n, 'nb'))).toEqual(['1.', '2.', '3.']);
  });
});
