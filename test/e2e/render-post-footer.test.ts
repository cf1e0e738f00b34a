import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ledger } from '../../src/feeds/delivery/ledger.js';
import {
  discordTarget,
  type FeedItem,
  hiddenMarker,
  markerIn,
  markerText,
  Poster,
  type PostTarget,
} from '../../src/feeds/delivery/poster.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld, startLoopbackWorld } from '../../harness/loopback/world.js';

/**
 * What members read in the footer of an automatic post: no crash-recovery marker they can see (it
 * is in characters Discord draws nothing for) and no raw UTC time; Discord's timestamps in the
 * reader's own language.
 */
describe('the footer of automatic posts and timestamps as a reader sees them', () => {
  let world: LoopbackWorld;
  const clock = new Date('2026-10-15T10:00:00Z');
  let ledger: Ledger;
  let target: PostTarget;

  beforeAll(async () => {
    world = await startLoopbackWorld({ now: () => clock });
    ledger = new Ledger(world.bot.store);
    target = discordTarget(world.bot.client);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  const item = (itemKey: string, channelId: string): FeedItem => ({
    guildId: world.guild.id,
    feed: 'test',
    itemKey,
    channelId,
    contentHash: itemKey,
    payload: {
      embeds: [
        {
          title: 'Höstsprinten',
          description: 'Anmälan stänger <t:1792252800:R>',
          footer: { text: 'Eventor id 1001' },
          timestamp: '2026-10-17T16:00:00Z',
        },
      ],
      allowedMentions: { parse: [] },
    },
  });

  it('writes a marker members cannot see, and finds the post by it after a crash', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'footer' }).id;
    const crashing = new Poster(ledger, target, {
      afterSend: () => {
        throw new Error('process killed');
      },
    });
    await expect(crashing.publish(item('short', channel))).rejects.toThrow('process killed');
    const [message] = world.discord.messages(channel);
    const footer = message!.embeds[0]!.footer!.text;
    const nonce = (await ledger.get({ guildId: world.guild.id, feed: 'test', itemKey: 'short' }))!.nonce!;
    // The footer as sent, then the marker: zero-width characters only.
    expect(footer).toBe(`Eventor id 1001${hiddenMarker(nonce)}`);
    expect(hiddenMarker(nonce)).toMatch(/^(?:\u200b|\u200c|\u200d|\u2060){24}$/);
    expect(markerIn(footer)).toBe(markerText(nonce));
    // What a member reads: the footer as the bot wrote it, nothing after it.
    expect(renderMessageText(message!).split('\n').at(-1)).toBe('> Eventor id 1001 - 2026-10-17T16:00:00Z');
    expect(renderMessageText(message!)).not.toMatch(/eb[A-Za-z0-9_-]{8}|ref/);

    const outcome = await new Poster(new Ledger(world.bot.store), target).publish(item('short', channel));
    expect(outcome.kind).toBe('recovered');
    expect(world.discord.messages(channel)).toHaveLength(1);
  });

  it('puts the marker after the title of an embed without a footer, or after the content, links kept whole', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'no-footer' }).id;
    const poster = new Poster(ledger, target);
    const titled: FeedItem = {
      ...item('titled', channel),
      payload: { embeds: [{ title: 'Höstsprinten', description: 'D21' }], allowedMentions: { parse: [] } },
    };
    const bare: FeedItem = {
      ...item('bare', channel),
      payload: { content: 'Results: http://127.0.0.1/Events/Show/1', allowedMentions: { parse: [] } },
    };
    await poster.publish(titled);
    await poster.publish(bare);
    const [first, second] = world.discord.messages(channel);
    const nonceOf = async (itemKey: string): Promise<string> =>
      (await ledger.get({ guildId: world.guild.id, feed: 'test', itemKey }))!.nonce!;
    expect(first!.embeds[0]!.title).toBe(`Höstsprinten${hiddenMarker(await nonceOf('titled'))}`);
    // A space ends the link before the marker, so the link stays as written.
    expect(second!.content).toBe(`Results: http://127.0.0.1/Events/Show/1 ${hiddenMarker(await nonceOf('bare'))}`);
    expect(renderMessageText(second!, { header: false })).toBe('Results: http://127.0.0.1/Events/Show/1');
  });

  it('still finds a post written with the old "ref <nonce>" marker', async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'old-marker' }).id;
    // A post made by the previous version, which wrote the whole nonce after "ref ".
    const oldStyle: PostTarget = {
      ...target,
      send: (channelId, payload, nonce) =>
        target.send(
          channelId,
          {
            ...payload,
            embeds: payload.embeds!.map((e) => ({ ...e, footer: { text: `Eventor id 1001 · ref ${nonce}` } })),
          },
          nonce,
        ),
    };
    const crashing = new Poster(ledger, oldStyle, {
      afterSend: () => {
        throw new Error('process killed');
      },
    });
    await expect(crashing.publish(item('old', channel))).rejects.toThrow('process killed');
    expect(world.discord.messages(channel)[0]!.embeds[0]!.footer!.text).toMatch(/ref eb[A-Za-z0-9_-]{12}$/);
    const outcome = await new Poster(new Ledger(world.bot.store), target).publish(item('old', channel));
    expect(outcome.kind).toBe('recovered');
    expect(world.discord.messages(channel)).toHaveLength(1);
  });

  it("shows the embed time and <t:…> markup in the reader's language and zone, never as raw UTC", async () => {
    const channel = world.discord.createTextChannel(world.guild.id, { name: 'reader' }).id;
    await new Poster(ledger, target).publish(item('reader', channel));
    const [message] = world.discord.messages(channel);
    const now = Date.parse('2026-10-15T16:00:00Z');
    const swedish = renderMessageText(message!, { reader: { locale: 'sv-SE', timeZone: 'Europe/Stockholm', now } });
    expect(swedish).toContain('Anmälan stänger om 2 dagar');
    expect(swedish).toMatch(/17 oktober 2026 (kl\. )?18:00/);
    expect(swedish).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    const norwegian = renderMessageText(message!, { reader: { locale: 'no', timeZone: 'Europe/Oslo', now } });
    expect(norwegian).toMatch(/om 2 (dager|døgn)/);
    expect(norwegian).toMatch(/17\. oktober 2026/);
    const english = renderMessageText(message!, { reader: { locale: 'en-GB', timeZone: 'Europe/Stockholm', now } });
    expect(english).toContain('in 2 days');
    expect(english).toMatch(/17 October 2026/);
    // Without a reader the markup stays as sent, for tests that check it.
    expect(renderMessageText(message!)).toContain('<t:1792252800:R>');
  });
});
