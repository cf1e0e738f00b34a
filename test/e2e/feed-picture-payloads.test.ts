/**
 * The pure parts of pictures in feed posts: the hash counts the pictures' bytes, the intent's JSON
 * keeps them, the REST request lists them as discord.js does, and the split pictures are made
 * only for classes with club runners and split times. Here and not under unit/: drawing runs the
 * compiled drawing thread (docs/decisions/chart-worker.md), which this project's set-up builds.
 */
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/feeds/delivery/keys.js';
import { payloadFromJson, payloadToJson, restRequest, withoutPictures } from '../../src/feeds/delivery/poster.js';
import { clubGraphMessages, listOfRaceKey, withRunnerPictures } from '../../src/feeds/kinds/results/split-pictures.js';
import type { MessagePayload } from '../../src/render/index.js';
import { analyseResultList } from '../../src/splits/result-list.js';
import { barColours, PALETTE, runnerColour } from '../../src/charts/index.js';
import { MIN_RUNNERS } from '../../src/splits/analysis.js';
import { decodePng, type Rgb } from '../support/png.js';
import { CLUB, classResult, OTHER, personResult, raceResult, resultList } from '../support/render-fixtures.js';

const picture = (fill: number) => ({ name: 'splits.png', data: new Uint8Array(32).fill(fill), description: 'A graph' });
const withPicture = (fill: number): MessagePayload => ({
  embeds: [{ title: 'H21', image: { url: 'attachment://splits.png' } }],
  allowedMentions: { parse: [] },
  pictures: [picture(fill)],
});

/** A runner of the fixtures over controls 31 and 35, with these three leg times. */
const runner = (
  id: string,
  given: string,
  org: typeof CLUB,
  legs: [number, number, number],
  withSplits = true,
  status: 'OK' | 'DidNotFinish' = 'OK',
) =>
  personResult(id, given, 'Berg', org, [
    raceResult({
      status,
      time: status === 'OK' ? legs[0] + legs[1] + legs[2] : null,
      splits: withSplits
        ? [
            { controlCode: '31', time: legs[0], status: 'OK' },
            { controlCode: '35', time: legs[0] + legs[1], status: status === 'OK' ? 'OK' : 'Missing' },
          ]
        : [],
    }),
  ]);

/** Four runners of H21 over controls 31 and 35: two of the club (the second slow on the first leg), two of another. */
function h21(withSplits = true) {
  const runner = (id: string, given: string, org: typeof CLUB, legs: [number, number, number]) =>
    personResult(id, given, 'Berg', org, [
      raceResult({
        time: legs[0] + legs[1] + legs[2],
        splits: withSplits
          ? [
              { controlCode: '31', time: legs[0], status: 'OK' },
              { controlCode: '35', time: legs[0] + legs[1], status: 'OK' },
            ]
          : [],
      }),
    ]);
  return resultList([
    classResult('H21', [
      runner('1', 'Anna', OTHER, [100, 110, 60]),
      runner('2', 'Bo', CLUB, [104, 112, 61]),
      runner('3', 'Cid', OTHER, [102, 115, 62]),
      runner('4', 'Dan', CLUB, [190, 114, 63]),
    ]),
    classResult('D21', [runner('5', 'Eva', OTHER, [120, 130, 70])]),
  ]);
}

describe('pictures in feed payloads', () => {
  it('hashes pictures by their bytes, and payloads without pictures as before', () => {
    expect(contentHash(withPicture(1))).toBe(contentHash(withPicture(1)));
    expect(contentHash(withPicture(1))).not.toBe(contentHash(withPicture(2)));
    const plain: MessagePayload = { content: 'x', allowedMentions: { parse: [] } };
    expect(contentHash(plain)).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash({ ...plain, pictures: [] })).not.toBe(contentHash(plain));
  });

  it('keeps the pictures through the intent JSON, bytes and all', () => {
    const json = payloadToJson(withPicture(7));
    expect(json).not.toContain('"0":');
    const back = payloadFromJson(json);
    expect(back.pictures).toHaveLength(1);
    expect(Buffer.from(back.pictures![0]!.data).equals(Buffer.from(picture(7).data))).toBe(true);
    expect({ ...back, pictures: undefined }).toEqual({ ...withPicture(7), pictures: undefined });
    const plain: MessagePayload = { content: 'x', allowedMentions: { parse: [] } };
    expect(payloadFromJson(payloadToJson(plain))).toEqual(plain);
  });

  it('lists the files as discord.js does; no pictures keeps the old ones, an empty list removes them', () => {
    const { body, files } = restRequest(withPicture(3));
    expect(body['attachments']).toEqual([{ id: '0', description: 'A graph' }]);
    expect(body).not.toHaveProperty('pictures');
    expect(body['allowed_mentions']).toEqual({ parse: [] });
    expect(files?.map((f) => f.name)).toEqual(['splits.png']);
    expect(restRequest({ content: 'x', allowedMentions: { parse: [] } })).toEqual({
      body: { content: 'x', allowed_mentions: { parse: [] } },
    });
    expect(restRequest({ content: 'x', allowedMentions: { parse: [] }, pictures: [] })).toEqual({
      body: { content: 'x', allowed_mentions: { parse: [] }, attachments: [] },
    });
  });

  it('without pictures, an embed loses the image that showed them and keeps the rest', () => {
    const bare = withoutPictures(withPicture(1));
    expect(bare.pictures).toBeUndefined();
    expect(bare.embeds).toEqual([{ title: 'H21' }]);
  });
});

describe('split pictures of the feeds', () => {
  it('carries person and club through the analysis without changing the rest', () => {
    const course = analyseResultList(h21())[0]!.courses[0]!;
    expect(course.results.map((r) => [r.name, r.personId, r.organisationId])).toEqual([
      ['Anna Berg', '1', OTHER.id],
      ['Bo Berg', '2', CLUB.id],
      ['Cid Berg', '3', OTHER.id],
      ['Dan Berg', '4', CLUB.id],
    ]);
  });

  it('one graph message per class with club runners and split times, with every club runner in words', () => {
    const messages = clubGraphMessages(h21(), CLUB.id!, 'en');
    expect(messages).toHaveLength(1);
    const [h21Graph] = messages;
    expect(h21Graph!.payload.embeds![0]!.title).toBe('Split times: H21');
    expect(h21Graph!.payload.embeds![0]!.image?.url).toMatch(/^attachment:\/\/splits-[0-9a-f]{8}\.png$/);
    const description = h21Graph!.payload.embeds![0]!.description!;
    expect(description).toContain('**Bo Berg**: ');
    expect(description).toMatch(/\*\*Dan Berg\*\*: lost \d:\d\d at control 1/);
    // The same data, the same key and hash; another club's view differs.
    expect(clubGraphMessages(h21(), CLUB.id!, 'en')[0]!.contentHash).toBe(h21Graph!.contentHash);
    expect(clubGraphMessages(h21(), CLUB.id!, 'sv')[0]!.key).toBe(h21Graph!.key);
    // The other club's runners are in H21 and D21; Eva alone in D21 is too few for a graph.
    expect(clubGraphMessages(h21(), OTHER.id!, 'en').map((m) => m.payload.embeds![0]!.title)).toEqual([
      'Split times: H21',
    ]);
    // No split times: nothing to draw.
    expect(clubGraphMessages(h21(false), CLUB.id!, 'en')).toEqual([]);
  });

  it('draws the graph on send: a PNG with alt text, referenced by the embed', async () => {
    const [message] = clubGraphMessages(h21(), CLUB.id!, 'en');
    const sent = await message!.complete();
    expect(sent.pictures).toHaveLength(1);
    const [file] = sent.pictures!;
    expect(Buffer.from(file!.data).subarray(1, 4).toString()).toBe('PNG');
    expect(file!.description.length).toBeGreaterThan(10);
    expect(file!.description.length).toBeLessThanOrEqual(1024);
    expect(sent.embeds![0]!.image?.url).toBe(`attachment://${file!.name}`);
  });

  it('draws a crafted Eventor name as plain text, cut short, mentions broken, in the alt text of thread and DM pictures', async () => {
    const list = h21();
    const crafted = `@everyone <@123456789012345678> [click](https://evil.example) ${'x'.repeat(3000)}`;
    const dan = list.classes[0]!.persons[3]!;
    (dan.person as { name: { given: string; family: string } }).name = { given: crafted, family: 'Berg' };
    const [message] = clubGraphMessages(list, CLUB.id!, 'en');
    const thread = (await message!.complete()).pictures![0]!.description;
    const dm = (await withRunnerPictures({ content: 'x', allowedMentions: { parse: [] } }, list, '4', 'en')).pictures!;
    for (const alt of [thread, ...dm.map((p) => p.description)]) {
      expect(alt).not.toContain('@everyone');
      expect(alt).not.toMatch(/<@\d+>/);
      expect(alt).not.toContain('x'.repeat(200));
    }
  });

  it("a result DM gets the runner's graph and bars with words; without split times it stays as it was", async () => {
    const dm: MessagePayload = {
      content: 'Your result is in',
      embeds: [{ title: 'Höstsprinten' }],
      allowedMentions: { parse: [] },
    };
    const pictured = await withRunnerPictures(dm, h21(), '4', 'en');
    expect(pictured.pictures?.map((p) => p.name)).toEqual(['splits.png', 'lost.png']);
    expect(pictured.embeds![0]).toEqual({ title: 'Höstsprinten', image: { url: 'attachment://splits.png' } });
    expect(pictured.embeds![1]!.image?.url).toBe('attachment://lost.png');
    expect(pictured.embeds![1]!.description).toMatch(/lost \d:\d\d at control 1/);
    expect(await withRunnerPictures(dm, h21(false), '4', 'en')).toBe(dm);
    expect(await withRunnerPictures(dm, h21(), 'nobody', 'en')).toBe(dm);
  });

  it(`a class of fewer than ${MIN_RUNNERS} runners gets no graph in the thread and none in the DM, as /splits refuses it`, async () => {
    const pair = [runner('7', 'Gun', CLUB, [100, 110, 60]), runner('8', 'Hans', OTHER, [104, 112, 61])];
    const list = resultList([classResult('D21', pair), ...h21().classes]);
    // H21 is drawn as before; D21, with the club's Gun, gets nothing.
    expect(clubGraphMessages(list, CLUB.id!, 'en').map((m) => m.payload.embeds![0]!.title)).toEqual([
      'Split times: H21',
    ]);
    expect(clubGraphMessages(resultList([classResult('D21', pair)]), CLUB.id!, 'en')).toEqual([]);
    expect(clubGraphMessages(resultList([classResult('D21', pair.slice(0, 1))]), CLUB.id!, 'en')).toEqual([]);
    const dm: MessagePayload = { content: 'Your result is in', allowedMentions: { parse: [] } };
    expect(await withRunnerPictures(dm, list, '7', 'en')).toBe(dm);
  });

  it('a DM keeps the runner in one colour: the graph line and the bars, no other runner’s colour', async () => {
    const dm: MessagePayload = { content: 'x', embeds: [{ title: 'H21' }], allowedMentions: { parse: [] } };
    const [graph, bars] = await Promise.all(
      (await withRunnerPictures(dm, h21(), '4', 'en')).pictures!.map((p) => decodePng(p.data)),
    );
    const rgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
    // Pixels of the colour itself (a line or bar is drawn in it; the blends at edges are not).
    const count = (image: typeof graph, hex: string): number => {
      const want = rgb(hex);
      let n = 0;
      for (let y = 0; y < image!.height; y += 2)
        for (let x = 0; x < image!.width; x += 2)
          if (image!.pixel(x, y).every((v, i) => Math.abs(v - want[i]!) <= 6)) n++;
      return n;
    };
    // Dan is drawn first in his graph: the first colour; his bars are that colour (his mistake) and its tint.
    expect(count(graph, runnerColour(0))).toBeGreaterThan(50);
    expect(count(bars, barColours(0).mistake)).toBeGreaterThan(50);
    expect(count(bars, barColours(0).lost)).toBeGreaterThan(0);
    // (A stray edge pixel may blend near another colour; a runner's line or bar would be hundreds.)
    for (const other of PALETTE.slice(1)) expect(count(bars, other), other).toBeLessThan(5);
  });

  it('a DM of a runner who did not finish: the graph (her line marked where it ends) and the words, no empty bars', async () => {
    const list = h21();
    list.classes[0]!.persons.push(runner('9', 'Ines', CLUB, [101, 0, 0], true, 'DidNotFinish'));
    const dm: MessagePayload = { content: 'x', embeds: [{ title: 'H21' }], allowedMentions: { parse: [] } };
    const pictured = await withRunnerPictures(dm, list, '9', 'en');
    expect(pictured.pictures!.map((p) => p.name)).toEqual(['splits.png']);
    expect(pictured.pictures![0]!.description).toContain(
      'Ines Berg (club) did not finish, the line ends at control 1 (31)',
    );
    expect(pictured.embeds![1]!.image).toBeUndefined();
    expect(pictured.embeds![1]!.description).toBeTruthy();
  });

  it('narrows a list to the race of a DM', () => {
    const list = h21();
    expect(listOfRaceKey(list, 'n:1')).toBe(list);
    expect(listOfRaceKey(list, 'n:2').classes).toEqual([]);
    expect(listOfRaceKey(list, 'id:77').classes).toEqual([]);
  });
});
