/**
 * `eventor-bot splits` on IOF XML 3.0 result lists the test writes: the `--json` shape, the text
 * table, `--class`, and one clear message for each bad input.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { capture } from '../support/cli-process.js';

const NS = 'http://www.orienteering.org/datastandard/3.0';

/** One PersonResult: cumulative times per control (null = missing punch) and the result time. */
function person(given: string, family: string, status: string, time: number | null, splits: [string, number | null][]) {
  const splitXml = splits
    .map(([code, t]) =>
      t === null
        ? `<SplitTime status="Missing"><ControlCode>${code}</ControlCode></SplitTime>`
        : `<SplitTime><ControlCode>${code}</ControlCode><Time>${t}</Time></SplitTime>`,
    )
    .join('');
  return `<PersonResult><Person><Name><Family>${family}</Family><Given>${given}</Given></Name></Person>
    <Result>${time === null ? '' : `<Time>${time}</Time>`}<Status>${status}</Status>${splitXml}</Result></PersonResult>`;
}

const LIST = `<?xml version="1.0" encoding="UTF-8"?>
<ResultList xmlns="${NS}" iofVersion="3.0" creator="test">
  <Event><Name>Test</Name><StartTime><Date>2024-06-01</Date></StartTime></Event>
  <ClassResult><Class><Name>H21</Name></Class>
    ${person('Given', 'Family', 'OK', 330, [
      ['31', 109],
      ['35', 229],
    ])}
    ${person('Fast', 'Leg', 'OK', 321, [
      ['31', 115],
      ['35', 227],
    ])}
    ${person('Slow', 'Runner', 'OK', 400, [
      ['31', 130],
      ['35', 300],
    ])}
    ${person('Mis', 'Punch', 'MissingPunch', 310, [
      ['31', 120],
      ['35', null],
    ])}
  </ClassResult>
  <ClassResult><Class><Name>D21</Name></Class>
    ${person('Only', 'One', 'OK', 500, [['40', 200]])}
  </ClassResult>
  <ClassResult><Class><Name>Open</Name></Class>
    ${person('No', 'Splits', 'OK', 600, [])}
  </ClassResult>
</ResultList>`;

async function splits(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = capture({});
  const code = await main(['splits', ...argv], io);
  return { code, out: io.stdout(), err: io.stderr() };
}

describe('eventor-bot splits', () => {
  let dir: string;
  let file: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-cli-splits-'));
    file = path.join(dir, 'results.xml');
    await writeFile(file, LIST);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('--json: classes, courses, best legs, the ideal and per runner legs up to the finish', async () => {
    const { code, out, err } = await splits(file, '--json', '--class', 'h21');
    expect(err).toBe('');
    expect(code).toBe(0);
    const data = JSON.parse(out) as { classes: unknown[] };
    // Legs: Given 109 120 101, Fast 115 112 94, Slow 130 170 100, Mis 120 - - (finish unknown: 35 missing).
    expect(data).toMatchObject({
      classes: [
        {
          class: 'H21',
          courses: [
            {
              controls: ['31', '35'],
              bestLegs: [109, 112, 94],
              ideal: 315,
              results: [
                {
                  name: 'Fast Leg',
                  status: 'OK',
                  time: 321,
                  place: 1,
                  legs: [
                    { to: '31', time: 115, rank: 2, behind: 6, mistake: false },
                    { to: '35', time: 112, rank: 1, behind: 6, mistake: false },
                    { to: 'F', time: 94, rank: 1, behind: 6, mistake: false },
                  ],
                },
                {
                  name: 'Given Family',
                  status: 'OK',
                  time: 330,
                  place: 2,
                  legs: [
                    { to: '31', time: 109, rank: 1, behind: 0, mistake: false },
                    { to: '35', time: 120, rank: 2, behind: 8, mistake: false },
                    { to: 'F', time: 101, rank: 3, behind: 15, mistake: false },
                  ],
                },
                {
                  name: 'Slow Runner',
                  place: 3,
                  legs: [
                    { to: '31', time: 130, rank: 4, behind: 21 },
                    { to: '35', time: 170, rank: 3, behind: 79, mistake: true },
                    { to: 'F', time: 100, rank: 2, behind: 85, mistake: false },
                  ],
                },
                {
                  name: 'Mis Punch',
                  status: 'MissingPunch',
                  place: null,
                  lost: null,
                  legs: [
                    { to: '31', time: 120, rank: 3, behind: 11, lost: null, mistake: false },
                    { to: '35', time: null, rank: null, behind: null, lost: null, mistake: false },
                    { to: 'F', time: null, rank: null, behind: -5, lost: null, mistake: false },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    expect(data.classes).toHaveLength(1);
    // Every leg carries every field of the documented shape (docs/splits.md#output-of-eventor-bot-splits).
    const legs = (data as { classes: { courses: { results: { legs: object[] }[] }[] }[] }).classes[0]!.courses[0]!
      .results[0]!.legs;
    for (const leg of legs)
      expect(Object.keys(leg).sort()).toEqual(['behind', 'lost', 'mistake', 'rank', 'time', 'to']);
  });

  it('prints a text table per class, saying when a course has too few runners', async () => {
    const { code, out, err } = await splits(file);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toContain('H21\n===');
    expect(out).toContain('Controls: 31 35, ideal 5:15, 4 runners');
    expect(out).toMatch(/1\. +Fast Leg +5:21 +1:55 \(2\) +1:52 \(1\) +1:34 \(1\)/);
    expect(out).toMatch(/Mis Punch +MissingPunch +2:00 \(3\) +- +-/);
    expect(out).toContain('D21\n===');
    expect(out).toContain('Too few runners on this course');
    expect(out).toContain(
      'Open\n====\n\nControls: (none), ideal 10:00, 1 runner\nNo split times: only the result times',
    );
  });

  it('one clear message for a missing file, an unknown class, another document and a bad flag', async () => {
    const missing = await splits(path.join(dir, 'nope.xml'));
    expect([missing.code, missing.err]).toEqual([
      1,
      `eventor-bot splits: cannot read '${path.join(dir, 'nope.xml')}': no such file\n`,
    ]);

    const unknown = await splits(file, '--class', 'H99');
    expect(unknown.code).toBe(1);
    expect(unknown.err).toBe(`eventor-bot splits: no class 'H99' in '${file}'; its classes: H21, D21, Open\n`);

    const other = path.join(dir, 'other.xml');
    await writeFile(other, '<html><body>not a list</body></html>');
    const notList = await splits(other);
    expect(notList.code).toBe(1);
    expect(notList.err).toMatch(
      /^eventor-bot splits: '.*other\.xml' cannot be read: .*splits reads an IOF XML 3\.0 ResultList/,
    );
    expect(notList.err.split('\n')).toHaveLength(2);

    const noFile = await splits();
    expect([noFile.code, noFile.err]).toEqual([
      2,
      'eventor-bot splits: name the result list file: eventor-bot splits <file>\n',
    ]);
    const bogus = await splits(file, '--bogus');
    expect(bogus.code).toBe(2);
    expect(bogus.err).toContain('--bogus');
    expect(bogus.out).toBe('');
  });
});
