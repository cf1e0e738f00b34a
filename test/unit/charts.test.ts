/**
 * The split-analysis pictures (docs/splits.md#pictures) drawn for real with Chart.js on
 * @napi-rs/canvas: the PNG decodes at its size, is not blank, has a white background, and the
 * highlighted runner's line and the mistake bars are where the analysis puts them, found through
 * Chart.js's own scales and read back from the decoded pixels.
 */
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { syntheticCourse } from '../../harness/bench/charts.js';
import {
  barColours,
  BAR_COLOUR,
  canDrawBars,
  canDrawGraph,
  GREY,
  KEY_HEIGHT,
  MARGIN,
  noGraph,
  NORWEGIAN,
  renderClubYear,
  renderSeasonYear,
  runnerColour,
  SWEDISH,
  BARS_HEIGHT,
  CODE_MAX,
  BARS_WIDTH,
  ENGLISH,
  FONT_FAMILY,
  fontRegistered,
  GRAPH_HEIGHT,
  GRAPH_WIDTH,
  MISTAKE_COLOUR,
  PALETTE,
  renderLostBars,
  renderSplitsGraph,
} from '../../src/charts/index.js';
import { type PictureRequest, shownRunners } from '../../src/charts/request.js';
import { NAME_MAX } from '../../src/render/index.js';
import { analyseCourse, type CourseAnalysis, MIN_RUNNERS } from '../../src/splits/analysis.js';
import { decodePng, type Rgb } from '../support/png.js';

const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const near = (a: Rgb, b: Rgb): boolean => a.every((v, i) => Math.abs(v - b[i]!) <= 24);

describe('splits graph', () => {
  const course = syntheticCourse(12, 10);
  const anna = 0;

  it('is a PNG of the intended size on white, not blank, with the highlighted line where the analysis puts it', async () => {
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight: [anna, 5] });
    const image = await decodePng(graph.png);
    expect([image.width, image.height]).toEqual([GRAPH_WIDTH, GRAPH_HEIGHT]);
    expect([graph.width, graph.height]).toEqual([GRAPH_WIDTH, GRAPH_HEIGHT]);
    expect(image.transparent).toBe(0);
    expect(image.pixel(2, 2)).toEqual([255, 255, 255]);
    expect(image.ink).toBeGreaterThan(GRAPH_WIDTH * GRAPH_HEIGHT * 0.02);

    expect(graph.colours).toEqual([PALETTE[0], PALETTE[1]]);
    const legs = course.results[anna]!.legs;
    // The start (0 behind) and every control and the finish: the point is drawn in the runner's colour.
    const checked = [{ point: 0, behind: 0 }, ...legs.map((l, k) => ({ point: k + 1, behind: l.behind! }))];
    expect(checked).toHaveLength(12);
    for (const { point, behind } of checked) {
      const { x, y } = graph.at(point, behind);
      expect(near(image.pixel(x, y), rgb(PALETTE[0])), `point ${point} at ${x},${y}`).toBe(true);
    }
    // ...and not somewhere else: 40 px further down the axis there is no line of hers at the finish.
    const finish = graph.at(11, legs[10]!.behind!);
    expect(near(image.pixel(finish.x, finish.y + 40), rgb(PALETTE[0]))).toBe(false);
  });

  it('says in words who is drawn, how far behind the ideal they finished and where they lost most', async () => {
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight: [anna] });
    const finish = course.results[anna]!.legs.at(-1)!.behind!;
    const m = Math.floor(finish / 60);
    const s = String(Math.round(finish % 60)).padStart(2, '0');
    expect(graph.alt).toMatch(/^Splits graph of H21, 12 runners: Åsa Öberg \(club\) /);
    expect(graph.alt).toContain(`Åsa Öberg (club) ${m}:${s} behind the ideal at the finish`);
    // Her planted mistake is on the leg to control 7, code 49.
    expect(graph.alt).toMatch(/lost most at control 7 \(49\), 1:\d\d/);
    // The winner is named for reference, without the club mark.
    const winner = course.results.find((r) => r.place === 1)!;
    expect(graph.alt).toContain(`; ${winner.name} `);
    expect(graph.alt.endsWith('.')).toBe(true);
  });

  it('uses the words the caller gives', async () => {
    const graph = await renderSplitsGraph({
      course,
      title: 'D21',
      highlight: [anna],
      words: { ...ENGLISH, graphAlt: (title, n) => `Sträcktider för ${title}, ${n} löpare`, highlighted: (n) => n },
    });
    expect(graph.alt).toMatch(/^Sträcktider för D21, 12 löpare: Åsa Öberg \d/);
  });

  it('shortens a name too long for the room at the right, so nothing is cut at the edge of the picture', async () => {
    const long = {
      ...course,
      results: course.results.map((r, i) =>
        i === 0 ? { ...r, name: 'Åsa Margareta Öberg-Sæther Lindqvist af Ekenstam' } : r,
      ),
    };
    const image = await decodePng((await renderSplitsGraph({ course: long, title: 'H21', highlight: [0] })).png);
    let inkAtEdge = 0;
    for (let y = 0; y < GRAPH_HEIGHT; y++) if (!near(image.pixel(GRAPH_WIDTH - 3, y), [255, 255, 255])) inkAtEdge++;
    expect(inkAtEdge).toBe(0);
  });

  it('refuses a runner to highlight that is not on the course, in one sentence', async () => {
    await expect(renderSplitsGraph({ course, title: 'H21', highlight: [12] })).rejects.toThrow(
      'runner 12 to highlight is not on the course (it has 12 runners)',
    );
  });
});

describe('time lost per leg', () => {
  const course = syntheticCourse(12, 10);
  const anna = course.results[0]!;

  it('draws mistakes in their own colour at the height of the time lost, other legs in the bar colour', async () => {
    const bars = await renderLostBars({ course, title: 'H21', runner: 0 });
    const image = await decodePng(bars.png);
    expect([image.width, image.height]).toEqual([BARS_WIDTH, BARS_HEIGHT]);
    expect(image.transparent).toBe(0);
    expect(image.ink).toBeGreaterThan(BARS_WIDTH * BARS_HEIGHT * 0.01);

    const mistakes = anna.legs.flatMap((l, k) => (l.mistake ? [k] : []));
    expect(mistakes).toEqual([6]);
    const lost = anna.legs[6]!.lost!;
    const middle = bars.at(6, lost / 2);
    expect(near(image.pixel(middle.x, middle.y), rgb(MISTAKE_COLOUR))).toBe(true);
    // Above the bar's top (and its label) it is background again.
    const above = bars.at(6, lost);
    expect(image.pixel(above.x - 12, above.y - 30)).toEqual([255, 255, 255]);

    const other = anna.legs.findIndex((l) => !l.mistake && l.lost !== null && l.lost >= 3);
    expect(other).toBeGreaterThanOrEqual(0);
    const bar = bars.at(other, anna.legs[other]!.lost! / 2);
    expect(near(image.pixel(bar.x, bar.y), rgb(BAR_COLOUR))).toBe(true);
  });

  it('lists the mistakes with their loss and leg rank in the alt text', async () => {
    const bars = await renderLostBars({ course, title: 'H21', runner: 0 });
    const leg = anna.legs[6]!;
    expect(bars.alt).toMatch(
      /^Time lost per leg by Åsa Öberg, H21: 1 mistake, 1:\d\d lost in all: 1:\d\d at control 7 \(49\), leg rank \d+\.$/,
    );
    expect(bars.alt).toContain(`leg rank ${leg.rank}.`);
  });

  it('refuses a runner without an estimate of time lost (empty bars), and a runner not on the course', async () => {
    const mispunch = { ...course, results: course.results.map((r, i) => (i === 0 ? { ...r, lost: null } : r)) };
    expect(canDrawBars(mispunch, 0)).toBe(false);
    await expect(renderLostBars({ course: mispunch, title: 'H21', runner: 0 })).rejects.toThrow(
      'no time-lost bars for this course: the runner has no estimate of time lost',
    );
    await expect(renderLostBars({ course, title: 'H21', runner: -1 })).rejects.toThrow(
      'runner -1 is not on the course',
    );
  });
});

describe('a request cut down to the runners its picture shows', () => {
  const course = syntheticCourse(60, 10);

  it('holds those runners only, and draws the very picture and alt text of the whole course', async () => {
    const request: PictureRequest = { kind: 'graph', course, title: 'H21', highlight: [7, 3], language: 'en' };
    const shown = shownRunners(request);
    if (shown.kind !== 'graph') throw new Error('a graph request');
    // The two highlighted runners and the three reference lines (the winner and two spread out).
    expect(shown.course.results).toHaveLength(5);
    expect(shown.runners).toBe(60);
    expect(shownRunners(shown)).toBe(shown);
    const whole = await renderSplitsGraph({ course, title: 'H21', highlight: [7, 3] });
    const cut = await renderSplitsGraph({
      course: shown.course,
      title: 'H21',
      highlight: shown.highlight,
      referenceLines: shown.references!,
      runners: shown.runners!,
    });
    expect(cut.alt).toBe(whole.alt);
    expect(cut.alt).toContain('60 runners');
    expect(Buffer.compare(cut.png, whole.png)).toBe(0);

    const bars = shownRunners({ kind: 'bars', course, title: 'H21', runner: 7, language: 'en' });
    if (bars.kind !== 'bars') throw new Error('a bars request');
    expect([bars.course.results, bars.runner]).toEqual([[course.results[7]], 0]);
    const barsWhole = await renderLostBars({ course, title: 'H21', runner: 7 });
    const barsCut = await renderLostBars({ course: bars.course, title: 'H21', runner: 0 });
    expect([barsCut.alt, Buffer.compare(barsCut.png, barsWhole.png)]).toEqual([barsWhole.alt, 0]);
  });

  it("refuses a runner not on the course with the renderers' own RangeError", () => {
    expect(() => shownRunners({ kind: 'graph', course, title: 'H21', highlight: [60], language: 'en' })).toThrow(
      new RangeError('runner 60 to highlight is not on the course (it has 60 runners)'),
    );
    expect(() => shownRunners({ kind: 'bars', course, title: 'H21', runner: -1, language: 'en' })).toThrow(
      new RangeError('runner -1 is not on the course (it has 60 runners)'),
    );
  });
});

describe('the font', () => {
  it('is registered under the project family and draws å ä ö ø æ as real glyphs, not one missing-glyph box', async () => {
    await renderSplitsGraph({ course: syntheticCourse(4, 3), title: 'H21', highlight: [] });
    expect(fontRegistered()).toBe(true);
    expect(GlobalFonts.families.some((f) => f.family === FONT_FAMILY)).toBe(true);
    const glyph = (text: string): string => {
      const canvas = createCanvas(60, 60);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#fff';
      ctx.fillRect(0, 0, 60, 60);
      ctx.fillStyle = '#000';
      ctx.font = `40px "${FONT_FAMILY}"`;
      ctx.fillText(text, 10, 45);
      return Buffer.from(ctx.getImageData(0, 0, 60, 60).data).toString('base64');
    };
    // A character no font has (private use) draws the missing-glyph box; ours all differ from it and from each other.
    const drawn = ['Å', 'A', 'ä', 'a', 'ö', 'o', 'ø', 'æ', '\uE000'].map(glyph);
    expect(new Set(drawn).size).toBe(drawn.length);
  });
});

describe('Eventor’s text on a picture (docs/splits.md#pictures)', () => {
  /** Every text drawn on the canvas while `draw` runs, caught where Chart.js and the plugins draw it. */
  async function drawnTexts<T>(draw: () => Promise<T>): Promise<{ picture: T; texts: string[] }> {
    const prototype = Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as {
      fillText: (text: string, ...rest: number[]) => void;
    };
    const original = prototype.fillText;
    const texts: string[] = [];
    prototype.fillText = function (this: unknown, text: string, ...rest: number[]) {
      texts.push(String(text));
      original.call(this, text, ...rest);
    };
    try {
      return { picture: await draw(), texts };
    } finally {
      prototype.fillText = original;
    }
  }

  const HOSTILE = '\u202E@everyone <@&123> <#7> </c:1> <t:0:R>\r\n# h\u2028\u0085\u0007';
  const hostileCourse = () => {
    const course = syntheticCourse(8, 5);
    course.controls = course.controls.map((code) => `${code}${HOSTILE}`);
    for (const runner of course.results) {
      runner.name = `${runner.name} ${HOSTILE}${'x'.repeat(5000)}`;
      for (const leg of runner.legs) leg.to = `${leg.to}${HOSTILE}`;
    }
    return course;
  };
  const live = (text: string): string[] =>
    [
      /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/.test(text)
        ? 'a control, bidi or line break'
        : '',
      /@(everyone|here)|<[@#/t:]/.test(text) ? 'a mention' : '',
    ].filter((what) => what !== '');

  it('names, control codes and the title are drawn and described as one cut line of plain text, whoever asked', async () => {
    const course = hostileCourse();
    const title = `H21 ${HOSTILE}`;
    const graph = await drawnTexts(() => renderSplitsGraph({ course, title, highlight: [0, 1] }));
    const bars = await drawnTexts(() => renderLostBars({ course, title, runner: 0 }));
    const texts = [...graph.texts, ...bars.texts, graph.picture.alt, bars.picture.alt];
    // The labels were drawn: the codes under the axis, the names at the lines' ends, the title.
    expect(graph.texts.some((t) => t.startsWith('31'))).toBe(true);
    expect(graph.texts.some((t) => t.startsWith('H21'))).toBe(true);
    expect(texts.flatMap((t) => live(t).map((what) => `${what} in ${JSON.stringify(t.slice(0, 80))}`))).toEqual([]);
    // A code is cut to CODE_MAX wherever it shows; a name to NAME_MAX.
    for (const text of [...graph.texts, ...bars.texts].filter((t) => t.startsWith('31')))
      expect(text.length).toBeLessThanOrEqual(CODE_MAX);
    expect(graph.picture.alt).toMatch(/control \d+ \(\d+[^)]{0,8}…\)/);
    expect(graph.picture.alt).not.toContain('x'.repeat(NAME_MAX));
    expect(bars.picture.alt.length).toBeLessThan(1024 * 2);
  });
});

type Decoded = Awaited<ReturnType<typeof decodePng>>;
const WHITE: Rgb = [255, 255, 255];

/** Pixels within `band` of any edge that are not background: a label, key or line cut or touching the edge. */
function inkAtEdges(image: Decoded, band: number): string[] {
  const found: string[] = [];
  for (let y = 0; y < image.height; y++)
    for (let x = 0; x < image.width; x++) {
      const atEdge = x < band || y < band || x >= image.width - band || y >= image.height - band;
      if (atEdge && !near(image.pixel(x, y), WHITE) && found.length < 5) found.push(`${x},${y}`);
    }
  return found;
}

/**
 * How many pixels are within `tolerance` of the colour, of every second pixel each way (a quarter
 * of the picture). A tight tolerance counts the colour itself, not the blends at the edges of
 * another (dark blue text blends through sky blue).
 */
function countNear(image: Decoded, colour: string, tolerance = 24): number {
  const wanted = rgb(colour);
  let n = 0;
  for (let y = 0; y < image.height; y += 2)
    for (let x = 0; x < image.width; x += 2)
      if (image.pixel(x, y).every((v, i) => Math.abs(v - wanted[i]!) <= tolerance)) n++;
  return n;
}

/** The pixels of the colour in a box (a label's words): more than a few when it was drawn there. */
function inkIn(image: Decoded, colour: string, box: { x: number; y: number; w: number; h: number }): number {
  let n = 0;
  for (let y = box.y; y < box.y + box.h; y++)
    for (let x = box.x; x < box.x + box.w; x++) if (near(image.pixel(x, y), rgb(colour))) n++;
  return n;
}

/** The synthetic class with runner 0 out after control 6, runner 1 mispunched (a control missing, then on to the finish). */
function withNonFinishers(): CourseAnalysis {
  const course = syntheticCourse(12, 10);
  const [out, mispunched] = course.results;
  out!.status = 'DidNotFinish';
  out!.place = null;
  out!.lost = null;
  out!.legs.forEach((leg, k) => {
    if (k >= 6) Object.assign(leg, { behind: null, time: null, lost: null, mistake: false });
  });
  mispunched!.status = 'MissingPunch';
  mispunched!.place = null;
  mispunched!.lost = null;
  return course;
}

describe('keys: where colours carry meaning, the picture says what (docs/splits.md#pictures)', () => {
  const course = syntheticCourse(12, 10);

  it('the time-lost bars have a key for a leg with time lost and a mistake, in the colours of the bars', async () => {
    const bars = await renderLostBars({ course, title: 'H21', runner: 0 });
    const image = await decodePng(bars.png);
    expect(bars.key.map((k) => [k.label, k.colour])).toEqual([
      [ENGLISH.keyLost, BAR_COLOUR],
      [ENGLISH.keyMistake, MISTAKE_COLOUR],
    ]);
    expect(BAR_COLOUR).not.toBe(MISTAKE_COLOUR);
    for (const sample of bars.key)
      expect(near(image.pixel(sample.x, sample.y), rgb(sample.colour)), sample.label).toBe(true);
    // The key's samples are the colours of the bars themselves: the mistake (leg 7) and another leg.
    const mistake = bars.at(6, course.results[0]!.legs[6]!.lost! / 2);
    expect(near(image.pixel(mistake.x, mistake.y), rgb(bars.key[1]!.colour))).toBe(true);
    const other = course.results[0]!.legs.findIndex((l) => !l.mistake && l.lost !== null && l.lost >= 3);
    const leg = bars.at(other, course.results[0]!.legs[other]!.lost! / 2);
    expect(near(image.pixel(leg.x, leg.y), rgb(bars.key[0]!.colour))).toBe(true);
    // The words are drawn beside the samples.
    const words = bars.key[1]!;
    expect(inkIn(image, '#1A1A1A', { x: Math.round(words.x + 14), y: words.y - 8, w: 40, h: 16 })).toBeGreaterThan(10);
  });

  it('the splits graph has a key for the thick coloured lines and the thin grey ones', async () => {
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight: [0, 5] });
    const image = await decodePng(graph.png);
    expect(graph.key.map((k) => [k.label, k.colour])).toEqual([
      [ENGLISH.keyHighlighted, PALETTE[0]],
      [ENGLISH.keyReference, GREY],
    ]);
    for (const sample of graph.key)
      expect(near(image.pixel(sample.x, sample.y), rgb(sample.colour)), sample.label).toBe(true);
    // Without highlighted runners, only the grey lines are in the key.
    const plain = await renderSplitsGraph({ course, title: 'H21', highlight: [] });
    expect(plain.key.map((k) => k.label)).toEqual([ENGLISH.keyReference]);
  });
});

describe('a line that ends without a valid finish is marked where it ends (docs/splits.md#pictures)', () => {
  const course = withNonFinishers();

  it('a cross in the runner’s colour where the line stops, and DNF, MP beside it', async () => {
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight: [0, 1] });
    const image = await decodePng(graph.png);
    expect(graph.marks.map((m) => [m.line, m.point, m.text])).toEqual([
      [0, 6, 'Åsa Öberg · DNF'],
      [1, 11, 'Björn Sæther · MP'],
    ]);
    for (const mark of graph.marks) {
      const colour = graph.colours[mark.line]!;
      const legs = course.results[mark.line]!.legs;
      const end = graph.at(mark.point, legs[mark.point - 1]!.behind!);
      expect([mark.x, mark.y]).toEqual([end.x, end.y]);
      // The cross's four arms: a plain point (radius 4) has no colour this far out on the diagonals.
      for (const [dx, dy] of [
        [6, 6],
        [-6, -6],
        [6, -6],
        [-6, 6],
      ] as const)
        expect(near(image.pixel(end.x + dx, end.y + dy), rgb(colour)), `${mark.text} ${dx},${dy}`).toBe(true);
      // The words beside it, in the runner's colour.
      expect(
        inkIn(image, colour, { x: Math.round(end.x + 18), y: Math.round(end.y - 9), w: 120, h: 18 }),
      ).toBeGreaterThan(40);
    }
    // Her line stops at control 6: nothing of hers where the finish would be.
    const original = syntheticCourse(12, 10).results[0]!.legs;
    const finish = graph.at(11, original[10]!.behind!);
    expect(near(image.pixel(finish.x, finish.y), rgb(graph.colours[0]!))).toBe(false);
    // A runner with a valid result gets no mark.
    const ok = await renderSplitsGraph({ course, title: 'H21', highlight: [2] });
    expect(ok.marks).toEqual([]);
  });

  it('says so in the alt text, and in the caller’s language on the picture', async () => {
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight: [0, 1] });
    expect(graph.alt).toContain('Åsa Öberg (club) did not finish, the line ends at control 6 (46)');
    expect(graph.alt).toContain('Björn Sæther (club) mispunched, the line ends at the finish');
    const swedish = await renderSplitsGraph({ course, title: 'H21', highlight: [0, 1], words: SWEDISH });
    expect(swedish.marks.map((m) => m.text)).toEqual(['Åsa Öberg · Utg.', 'Björn Sæther · Felst.']);
    const norwegian = await renderSplitsGraph({ course, title: 'H21', highlight: [0], words: NORWEGIAN });
    expect(norwegian.marks.map((m) => m.text)).toEqual(['Åsa Öberg · Brutt']);
    const disqualified = syntheticCourse(12, 10);
    disqualified.results[3]!.status = 'Disqualified';
    expect((await renderSplitsGraph({ course: disqualified, title: 'H21', highlight: [3] })).marks[0]!.text).toBe(
      'Runner 4 · DSQ',
    );
  });
});

describe('a class too small for a graph gets none, by one rule (src/charts/request.ts)', () => {
  /** A class of `n` runners who all ran the three controls. */
  const classOf = (n: number): CourseAnalysis =>
    analyseCourse(
      ['31', '32', '33'],
      Array.from({ length: n }, (_, r) => ({
        name: `Runner ${r + 1}`,
        status: 'OK' as const,
        time: 400 + r * 20,
        splits: [100, 200, 300].map((t, k) => ({
          controlCode: String(31 + k),
          time: t + r * 5 * (k + 1),
          status: 'OK' as const,
        })),
      })),
    );

  it(`fewer than ${MIN_RUNNERS} runners: neither renderer draws, and the rule says why`, async () => {
    for (const n of [1, MIN_RUNNERS - 1]) {
      const course = classOf(n);
      expect([noGraph(course), canDrawGraph(course), canDrawBars(course, 0)]).toEqual(['tooFew', false, false]);
      await expect(renderSplitsGraph({ course, title: 'H21', highlight: [0] })).rejects.toThrow(
        new RangeError('no splits graph for this course: too few runners'),
      );
      await expect(renderLostBars({ course, title: 'H21', runner: 0 })).rejects.toThrow(RangeError);
    }
    const enough = classOf(MIN_RUNNERS);
    expect([noGraph(enough), canDrawGraph(enough)]).toEqual([null, true]);
    const graph = await renderSplitsGraph({ course: enough, title: 'H21', highlight: [0] });
    expect(graph.alt).toMatch(/^Splits graph of H21, 3 runners/);
  });

  it('no ideal time to draw from, or over the limits: no graph either', () => {
    const course = classOf(4);
    expect(noGraph({ ...course, ideal: null })).toBe('noSplits');
    expect(noGraph({ ...course, controls: [] })).toBe('noSplits');
    expect(noGraph({ ...course, tooLarge: true })).toBe('tooLarge');
  });
});

describe('nothing cut or touching an edge (docs/splits.md#pictures)', () => {
  const LONG_TITLE = `H21 Lång · ${'Väldigt långt klassnamn '.repeat(12)}`;
  const LONG_NAME = 'Åsa Margareta Öberg-Sæther Lindqvist af Ekenstam von Württemberg';
  const band = MARGIN / 2;

  /**
   * The texts drawn with a width limit (Chart.js gives the title its box's width) that did not fit
   * it: the canvas would squeeze their letters together.
   */
  async function squeezed(draw: () => Promise<unknown>): Promise<string[]> {
    const prototype = Object.getPrototypeOf(createCanvas(1, 1).getContext('2d')) as {
      fillText: (text: string, x: number, y: number, maxWidth?: number) => void;
      measureText: (text: string) => { width: number };
    };
    const original = prototype.fillText;
    const found: string[] = [];
    prototype.fillText = function (this: typeof prototype, text: string, x: number, y: number, maxWidth?: number) {
      if (maxWidth !== undefined && this.measureText(String(text)).width > maxWidth + 0.5)
        found.push(String(text).slice(0, 40));
      if (maxWidth === undefined) original.call(this, text, x, y);
      else original.call(this, text, x, y, maxWidth);
    };
    try {
      await draw();
    } finally {
      prototype.fillText = original;
    }
    return found;
  }

  it('a long title is shortened with …, never squeezed', async () => {
    const course = syntheticCourse(12, 10);
    course.results[0]!.name = LONG_NAME;
    expect(await squeezed(() => renderSplitsGraph({ course, title: LONG_TITLE, highlight: [0] }))).toEqual([]);
    expect(await squeezed(() => renderLostBars({ course, title: LONG_TITLE, runner: 0 }))).toEqual([]);
    const months = Array.from({ length: 12 }, () => ({ starts: 1, podiums: 0 }));
    expect(await squeezed(() => renderClubYear({ title: LONG_TITLE, months }))).toEqual([]);
    expect(await squeezed(() => renderSeasonYear({ title: LONG_TITLE, year: 2026, races: [] }))).toEqual([]);
  });

  it('the splits graph: a long title, long names, a crowd of names at the bottom, a mark', async () => {
    const course = syntheticCourse(40, 10);
    course.results[0]!.name = LONG_NAME;
    // The twelve slowest drawn strong: their names crowd at the bottom of the axis.
    const slowest = course.results
      .map((r, i) => ({ i, place: r.place! }))
      .sort((a, b) => b.place - a.place)
      .slice(0, 12)
      .map(({ i }) => i);
    course.results[slowest[0]!]!.status = 'MissingPunch';
    for (const words of [ENGLISH, SWEDISH, NORWEGIAN]) {
      const graph = await renderSplitsGraph({
        course,
        title: LONG_TITLE,
        highlight: [0, ...slowest.slice(0, 11)],
        words,
      });
      expect(inkAtEdges(await decodePng(graph.png), band), words.keyHighlighted).toEqual([]);
    }
    const marked = await renderSplitsGraph({ course: withNonFinishers(), title: LONG_TITLE, highlight: [0, 1] });
    expect(inkAtEdges(await decodePng(marked.png), band)).toEqual([]);
  });

  it('every grey line stays inside the axis: the axis fits every line drawn', async () => {
    const course = syntheticCourse(40, 10);
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight: [0] });
    const image = await decodePng(graph.png);
    const shown = shownRunners({ kind: 'graph', course, title: 'H21', highlight: [0], language: 'en' });
    if (shown.kind !== 'graph') throw new Error('a graph request');
    expect(shown.course.results).toHaveLength(4);
    for (const runner of shown.course.results) {
      // The last leg's middle: the line is drawn there, inside the axis.
      const [a, b] = [graph.at(10, runner.legs[9]!.behind!), graph.at(11, runner.legs[10]!.behind!)];
      const middle = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      expect(b.y, runner.name).toBeLessThan(GRAPH_HEIGHT - MARGIN - KEY_HEIGHT);
      expect(near(image.pixel(middle.x, middle.y), WHITE), runner.name).toBe(false);
    }
  });

  it('the time-lost bars, the season’s pictures: a long title, in every language', async () => {
    const course = syntheticCourse(12, 10);
    course.results[0]!.name = LONG_NAME;
    for (const words of [ENGLISH, SWEDISH, NORWEGIAN]) {
      const bars = await renderLostBars({ course, title: LONG_TITLE, runner: 0, words });
      expect(inkAtEdges(await decodePng(bars.png), band), words.keyLost).toEqual([]);
    }
    const year = await renderSeasonYear({
      title: LONG_TITLE,
      year: 2026,
      races: [
        { day: '2026-01-01', label: 'Nyårsloppet', share: 0 },
        { day: '2026-12-31', label: 'Nyårsafton', share: 1 },
      ],
    });
    expect(inkAtEdges(await decodePng(year.png), band)).toEqual([]);
    const club = await renderClubYear({
      title: LONG_TITLE,
      months: Array.from({ length: 12 }, (_, m) => ({ starts: 10 + m, podiums: m })),
    });
    expect(inkAtEdges(await decodePng(club.png), band)).toEqual([]);
  });
});

describe('a runner keeps one colour across the pictures of one message (docs/splits.md#pictures)', () => {
  const course = syntheticCourse(12, 10);

  it('the bars of the n-th runner drawn strong are in that runner’s colour, and no other runner’s', async () => {
    // As /splits draws them: the member and two more of the club in the graph, the member's bars.
    const highlight = [4, 0, 8];
    const graph = await renderSplitsGraph({ course, title: 'H21', highlight });
    const graphImage = await decodePng(graph.png);
    for (const [n, runner] of highlight.entries()) {
      expect(graph.colours[n]).toBe(runnerColour(n));
      expect(countNear(graphImage, runnerColour(n)), `runner ${runner}`).toBeGreaterThan(50);
      const bars = await renderLostBars({ course, title: 'H21', runner, colour: n });
      const image = await decodePng(bars.png);
      expect(barColours(n).mistake).toBe(graph.colours[n]);
      expect(countNear(image, barColours(n).lost)).toBeGreaterThan(50);
      // No other runner's colour anywhere in the bars: a colour means one runner in the message.
      for (const [m] of highlight.entries())
        if (m !== n)
          expect(countNear(image, runnerColour(m), 6), `runner ${m}'s colour in ${runner}'s bars`).toBeLessThan(5);
    }
    // Runner 0 has a mistake: drawn in her graph colour (the second line, orange).
    const bars = await renderLostBars({ course, title: 'H21', runner: 0, colour: 1 });
    const image = await decodePng(bars.png);
    const mistake = bars.at(6, course.results[0]!.legs[6]!.lost! / 2);
    expect(near(image.pixel(mistake.x, mistake.y), rgb(graph.colours[1]!))).toBe(true);
  });
});
