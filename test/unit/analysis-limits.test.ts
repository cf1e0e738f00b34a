/**
 * What is over the analysis's limits (docs/splits.md#limits: runners in a class, controls on a
 * course, club runners in a results thread) is not analysed, and every place that shows the
 * analysis says so in the same words, in every language: `/splits`, `/results` with splits, the
 * results thread and the result DM. Nothing half-written: no graph, no ranks, no words of a
 * course over the limits.
 */
import { describe, expect, it } from 'vitest';
import { splitsView } from '../../src/app/splits.js';
import { UserFacingError } from '../../src/i18n/user-facing-error.js';
import { type Language, t } from '../../src/i18n/index.js';
import { clubGraphMessages, runnerPictures } from '../../src/feeds/kinds/results/split-pictures.js';
import { renderClubResults, renderPersonResults, tooLargeText } from '../../src/render/index.js';
import { MAX_CLASS_RUNNERS, MAX_COURSE_CONTROLS, MAX_THREAD_CLUB_RUNNERS } from '../../src/splits/limits.js';
import { analyseResultList } from '../../src/splits/result-list.js';
import { largeClass, largeList } from '../support/growth.js';
import { CLUB, ctx, OTHER, resultList } from '../support/render-fixtures.js';

const LANGUAGES: readonly Language[] = ['en', 'sv', 'nb'];
/** One more runner than a class may have, on a few controls. */
const tooMany = () => largeList(MAX_CLASS_RUNNERS + 1, 3, CLUB, OTHER, 100);
/** A class of twenty on one control more than a course may have. */
const tooLong = () => largeList(20, MAX_COURSE_CONTROLS + 1, CLUB, OTHER, 4);

const textOf = (value: unknown): string => JSON.stringify(value);

describe('the limits', () => {
  it('are named in one message, the same words in every place, in en, sv and nb', () => {
    for (const language of LANGUAGES) {
      const text = tooLargeText(language);
      for (const limit of [MAX_CLASS_RUNNERS, MAX_COURSE_CONTROLS, MAX_THREAD_CLUB_RUNNERS])
        expect(text).toContain(String(limit));
      expect(text).not.toMatch(/\{\w+\}/);
    }
    expect(new Set(LANGUAGES.map(tooLargeText)).size).toBe(3);
    expect(t('sv', 'render.analysis.tooLarge', { runners: 1, controls: 2, clubRunners: 3 })).toMatch(/^För stort/);
  });

  it('leave a class over them unanalysed: its runners are there, without legs or places', () => {
    const [cls] = analyseResultList(tooMany());
    expect(cls!.courses.every((c) => c.tooLarge && c.bestLegs.length === 0)).toBe(true);
    const results = cls!.courses.flatMap((c) => c.results);
    expect(results).toHaveLength(MAX_CLASS_RUNNERS + 1);
    expect(results.every((r) => r.legs.length === 0 && r.place === null && r.lost === null)).toBe(true);
    // A course of too many controls alone is left out; its class's other course is analysed, and
    // places count every runner of the class.
    const short = largeClass('H21', 10, 3, OTHER, OTHER);
    const long = largeClass('H21', 10, MAX_COURSE_CONTROLS + 1, CLUB, CLUB);
    const [mixed] = analyseResultList(resultList([{ ...short, persons: [...short.persons, ...long.persons] }]));
    expect(mixed!.courses.map((c) => c.tooLarge).sort()).toEqual([false, true]);
    const places = mixed!.courses.flatMap((c) => c.results.map((r) => r.place)).sort((a, b) => a! - b!);
    expect(places).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});

describe('each place says so', () => {
  it('/splits refuses with the message, for too many runners and for too many controls', () => {
    for (const list of [tooMany(), tooLong()]) {
      let error: unknown;
      try {
        splitsView(list, CLUB.id!, { className: null, personIds: ['p1'], named: true });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(UserFacingError);
      expect((error as UserFacingError).said.in('nb')).toBe(tooLargeText('nb'));
    }
  });

  it('/results with splits: the plain table, and the message once (the club) or under the table (a member)', () => {
    const list = tooLong();
    const analyses = new Map([['1001', analyseResultList(list)]]);
    const club = textOf(
      renderClubResults(list, ctx('sv'), { organisationId: CLUB.id!, top: 3, splits: true, analyses }),
    );
    expect(club.split(tooLargeText('sv')).length - 1).toBe(1);
    expect(club).not.toContain(' Pl ');
    const mine = { ...list, classes: [{ ...list.classes[0]!, persons: [list.classes[0]!.persons[0]!] }] };
    const member = textOf(
      renderPersonResults('Runner 1', [mine], ctx('en'), { splits: true, personId: 'p1', analyses }),
    );
    expect(member).toContain(tooLargeText('en'));
    expect(member).not.toContain(' Rk ');
  });

  it('the results thread: the class named with the message, no picture', () => {
    const [message] = clubGraphMessages(tooMany(), CLUB.id!, 'en');
    expect(message!.payload.embeds![0]!.title).toContain('H21');
    expect(message!.payload.embeds![0]!.description).toBe(tooLargeText('en'));
    expect(message!.payload.embeds![0]!.image).toBeUndefined();
    return expect(message!.complete()).resolves.toEqual(message!.payload);
  });

  it('the results thread: classes left out for its club runners, and one message saying so', () => {
    // Two classes of the club's runners that together are over the thread's limit.
    const half = MAX_THREAD_CLUB_RUNNERS / 2 + 1;
    const list = resultList([largeClass('H21', half, 3, CLUB, OTHER), largeClass('D21', half, 3, CLUB, OTHER)]);
    const messages = clubGraphMessages(list, CLUB.id!, 'sv');
    expect(messages).toHaveLength(2);
    expect(messages[0]!.payload.embeds![0]!.image?.url).toMatch(/^attachment:/);
    expect(messages[1]!.payload.embeds![0]!.description).toBe(tooLargeText('sv'));
  });

  it('the result DM: the message instead of the pictures', () => {
    expect(runnerPictures(tooMany(), 'p1', 'en')).toEqual({ kind: 'tooLarge' });
    expect(runnerPictures(tooLong(), 'p1', 'en')).toEqual({ kind: 'tooLarge' });
    expect(runnerPictures(largeList(20, 3, CLUB, OTHER), 'p1', 'en').kind).toBe('pictures');
  });
});
