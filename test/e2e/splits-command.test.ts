import { createCanvas, loadImage } from '@napi-rs/canvas';
import { SlashCommandBuilder } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import type { BotCommand } from '../../src/bot/command.js';
import { barColours, GRAPH_HEIGHT, GRAPH_WIDTH, PALETTE, runnerColour } from '../../src/charts/index.js';
import { decodePng } from '../support/png.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { type MessagePayload, runnerAnalysisLines } from '../../src/render/index.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { analyseResultList } from '../../src/splits/result-list.js';
import { type SplitsRunner as Runner, splitsEvent } from '../support/splits-event.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 20_000 };

/** A command that hands a whole payload with a picture to `answer`, as a handler may. */
const pictureProbe: BotCommand = {
  definition: new SlashCommandBuilder().setName('picture-probe').setDescription('probe').toJSON(),
  defer: 'ephemeral',
  callsEventor: false,
  async execute(ctx) {
    const canvas = createCanvas(40, 20);
    canvas.getContext('2d').fillRect(0, 0, 20, 20);
    const payload: MessagePayload = {
      embeds: [{ title: 'probe', image: { url: 'attachment://probe.png' } }],
      allowedMentions: { parse: [] },
      pictures: [{ name: 'probe.png', data: await canvas.encode('png'), description: 'a black square' }],
    };
    await ctx.answer(payload);
  },
};

describe('/splits end to end: the graph and the analysis in words', () => {
  let world: LoopbackWorld;
  let event: SandboxEvent;
  let own: Runner;
  let other: Runner;
  let noSplits: SandboxEvent;
  /** An event whose classes were cut to two runners with split times: too few for a graph. */
  let tiny: { event: SandboxEvent; className: string };

  const run = (user: LoopbackWorld['member'], options: Record<string, string | boolean>, locale = 'en-GB') =>
    world.discord
      .runCommand({ guildId: world.guild.id, channelId: world.channel.id, user, name: 'splits', options, locale })
      .answer(WAIT);

  /** The runner's analysis lines as the bot writes them, from the sandbox's own complete list. */
  const expectedLines = (runner: Runner): string[] => {
    const list = world.eventor.dataset.details(event).resultList!;
    for (const group of analyseResultList(list))
      for (const course of group.courses) {
        const found = course.results.find((r) => r.personId === runner.personId);
        if (found) return runnerAnalysisLines(course, found, 'en');
      }
    throw new Error(`no analysis of ${runner.name}`);
  };

  const pictures = (view: MessageView) => world.discord.attachments(view.id);

  beforeAll(async () => {
    world = await startTestWorld({ commands: [...COMMANDS, pictureProbe] });
    const ds = world.eventor.dataset;
    ({ event, first: own, second: other } = splitsEvent(world.eventor, world.eventor.now().getTime()));
    noSplits = ds.events.find((e) => e.hasResults && e.shape === 'single' && e !== event)!;
    // An organiser who published results without split times, as many small events do.
    for (const cr of ds.details(noSplits).resultList!.classes)
      for (const p of cr.persons) for (const r of p.results) r.splits = [];
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, own.personId, 'admin');
    // The last such event: the first is the one the Eventor-down test asks for fresh.
    const others = ds.events.filter((e) => e.hasResults && e.shape === 'single' && e !== event && e !== noSplits);
    expect(others.length).toBeGreaterThan(1);
    const small = others.at(-1)!;
    const classes = ds.details(small).resultList!.classes;
    for (const cr of classes) cr.persons = cr.persons.filter((p) => (p.results[0]?.splits.length ?? 0) > 0).slice(0, 2);
    tiny = { event: small, className: classes.find((c) => c.persons.length > 0)!.class.name };
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('found the sandbox data the tests need', () => {
    expect(event).toBeDefined();
    expect(own.personId).not.toBe(other.personId);
  });

  it('answers a linked member privately with the graph, their bars and the analysis in words', async () => {
    const reply = await run(world.member, { event: event.id });
    expect(reply.ephemeral).toBe(true);
    const text = renderMessageText(reply);
    expect(text).toContain(`Split times: ${own.className}`);
    expect(text).toContain(`**${own.name}**`);
    for (const line of expectedLines(own)) expect(text).toContain(line);

    const files = pictures(reply);
    expect(files.map((f) => f.name)).toEqual(['splits.png', 'lost-per-leg.png']);
    // Discord resolves each embed's attachment:// reference to the file's own address.
    expect(reply.embeds.map((e) => e.image?.url)).toEqual(files.map((f) => f.url));
    for (const file of files) {
      expect(file.contentType).toBe('image/png');
      expect(file.description).toBeTruthy();
      const image = await loadImage(file.bytes);
      expect(image.width).toBe(GRAPH_WIDTH);
    }
    const graph = await loadImage(files[0]!.bytes);
    expect(graph.height).toBe(GRAPH_HEIGHT);
    // The alt text says in words whose line is drawn strong.
    expect(files[0]!.description).toContain(own.name);
  });

  it("keeps the member in one colour: their line in the graph and their bars, no other runner's colour in the bars", async () => {
    const reply = await run(world.member, { event: event.id });
    const [graph, bars] = await Promise.all(pictures(reply).map((f) => decodePng(f.bytes)));
    // Pixels of the colour itself (a line or bar is drawn in it; the blends at edges are not).
    const count = (image: typeof graph, hex: string): number => {
      const want = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
      let n = 0;
      for (let y = 0; y < image!.height; y += 2)
        for (let x = 0; x < image!.width; x += 2)
          if (image!.pixel(x, y).every((v, i) => Math.abs(v - want[i]!) <= 6)) n++;
      return n;
    };
    // The member is drawn first: the first colour, in the graph and as the bars' own.
    expect(count(graph, runnerColour(0))).toBeGreaterThan(50);
    expect(count(bars, barColours(0).lost)).toBeGreaterThan(0);
    // The club's other runners have the other colours in the graph; none of them is in the bars.
    for (const other of PALETTE.slice(1)) expect(count(bars, other), other).toBeLessThan(5);
  });

  it('a class too small for a graph: the refusal that says so, and no picture', async () => {
    const reply = await run(world.member, { event: tiny.event.id, class: tiny.className });
    expect(renderMessageText(reply)).toContain('Too few runners ran this course to compare split times');
    expect(pictures(reply)).toEqual([]);
  });

  it('share:true answers in the channel, pictures included', async () => {
    const reply = await run(world.member, { event: event.id, share: true });
    expect(reply.ephemeral).toBe(false);
    expect(pictures(reply).map((f) => f.name)).toContain('splits.png');
  });

  it('another club member, picked from autocomplete: their class and their analysis, in Swedish', async () => {
    // Picked by their Eventor person, as autocomplete offers them: nobody needs to have linked them.
    const reply = await run(world.member, { event: event.id, member: other.personId }, 'sv-SE');
    const text = renderMessageText(reply);
    expect(text).toContain(`Sträcktider: ${other.className}`);
    expect(text).toContain(`**${other.name}**`);
    expect(text).not.toContain(`**${own.name}**`);
    expect(pictures(reply).map((f) => f.name)).toEqual(['splits.png', 'lost-per-leg.png']);
    expect(pictures(reply)[0]!.description).toContain(other.name);
  });

  it('a club member named by typing their name without picking: the same answer', async () => {
    const picked = await run(world.admin, { event: event.id, member: other.personId });
    const typed = await run(world.admin, { event: event.id, member: other.name.toLowerCase() });
    expect(typed.embeds.map((e) => e.description)).toEqual(picked.embeds.map((e) => e.description));
    expect(renderMessageText(typed)).toContain(`**${other.name}**`);
  });

  it('the class option shows that class; the caller not in it gets the club runners there', async () => {
    const reply = await run(world.member, { event: event.id, class: other.className });
    const text = renderMessageText(reply);
    expect(text).toContain(`Split times: ${other.className}`);
    expect(text).toContain('You have no result to show here');
    expect(text).toContain(`**${other.name}**`);
    // The club's runners only: no lost-per-leg bars of one member.
    expect(pictures(reply).map((f) => f.name)).toEqual(['splits.png']);
  });

  it('without a link, the club runners of the first class with any', async () => {
    const reply = await run(world.admin, { event: event.id });
    const text = renderMessageText(reply);
    expect(text).toContain('Split times:');
    expect(text).not.toContain('You have no result');
    expect(pictures(reply).map((f) => f.name)).toEqual(['splits.png']);
  });

  it('an unknown member, an unknown class, an event without splits: one clear message each', async () => {
    const unknownMember = await run(world.member, { event: event.id, member: 'Nobody Atall' });
    expect(renderMessageText(unknownMember)).toContain('I could not find a club member called "Nobody Atall"');
    expect(pictures(unknownMember)).toEqual([]);
    const madeUp = await run(world.member, { event: event.id, member: '999999999' });
    expect(renderMessageText(madeUp)).toContain('I could not find a club member called "999999999"');
    expect(pictures(madeUp)).toEqual([]);

    const unknown = await run(world.member, { event: event.id, class: 'Nosuchclass 99' });
    expect(renderMessageText(unknown)).toContain('The results have no class "Nosuchclass 99"');
    expect(renderMessageText(unknown)).toContain(own.className);

    const bare = await run(world.member, { event: noSplits.id });
    expect(renderMessageText(bare)).toContain('have no split times');
    expect(pictures(bare)).toEqual([]);

    const missing = await run(world.member, { event: '999999999' });
    expect(renderMessageText(missing)).toContain('I could not find that event in Eventor');
  });

  it("a relay: the leg the member ran, their team's club", async () => {
    const ds = world.eventor.dataset;
    const home = ds.homeClub.id;
    let found: { event: SandboxEvent; personId: string; leg: number; className: string } | null = null;
    for (const ev of ds.events.filter((e) => e.shape === 'relay' && e.hasResults)) {
      for (const cr of ds.details(ev).resultList!.classes) {
        if (cr.teams.length < 3) continue;
        for (const team of cr.teams)
          for (const m of team.members)
            if (!found && m.organisation?.id === home && m.person?.id && m.leg && m.leg > 1 && m.result.status === 'OK')
              found = { event: ev, personId: m.person.id, leg: m.leg, className: cr.class.name };
      }
      if (found) break;
    }
    expect(found).not.toBeNull();
    const relayRunner = world.discord.createMember(world.guild.id, { username: 'stafett', locale: 'en-GB' });
    await world.bot.store.links.linkPerson(world.guild.id, relayRunner.id, found!.personId, 'admin');
    const reply = await run(relayRunner, { event: found!.event.id });
    expect(renderMessageText(reply)).toContain(`Split times: ${found!.className}, Leg ${found!.leg}`);
    expect(pictures(reply).map((f) => f.name)).toContain('splits.png');
  });

  it('logged no unexpected failure for any of the answers above', () => {
    const errors = world.logLines
      .map((line) => JSON.parse(line) as { level: string; msg: string })
      .filter((line) => line.level === 'error');
    expect(errors).toEqual([]);
  });

  it('Eventor down: the usual message, and nothing else', async () => {
    const ds = world.eventor.dataset;
    // An event never asked before, so no cached answer can stand in.
    const fresh = ds.events.find((e) => e.hasResults && e !== event && e !== noSplits && e.shape === 'single')!;
    world.eventor.faults.add({ path: '/api/results/event', kind: 'status', status: 503, times: 50 });
    try {
      const reply = await run(world.member, { event: fresh.id });
      expect(renderMessageText(reply)).toContain('Eventor is not answering right now.');
      expect(pictures(reply)).toEqual([]);
    } finally {
      world.eventor.faults.clear();
    }
  });

  it('autocomplete offers events that have begun, nearest first', async () => {
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'splits',
      options: {},
      focused: 'event',
      value: event.name.split(' ')[0]!,
      ...WAIT,
    });
    expect(choices.map((c) => c.value)).toContain(event.id);
    const byId = new Map(world.eventor.dataset.events.map((e) => [e.id, e]));
    for (const choice of choices)
      expect(Date.parse(byId.get(String(choice.value))!.event.start!)).toBeLessThan(world.eventor.now().getTime());
  });

  it("autocomplete offers the club's members by name, each by their Eventor person id", async () => {
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'splits',
      options: { event: event.id },
      focused: 'member',
      value: other.name,
      ...WAIT,
    });
    expect(choices.map((c) => c.value)).toContain(other.personId);
    expect(choices.find((c) => c.value === other.personId)!.name).toContain(other.name);
  });

  it('autocomplete offers the classes of the event by name', async () => {
    const choices = await world.discord.autocomplete({
      guildId: world.guild.id,
      channelId: world.channel.id,
      user: world.member,
      name: 'splits',
      options: { event: event.id },
      focused: 'class',
      value: own.className,
      ...WAIT,
    });
    expect(choices.map((c) => c.value)).toContain(own.className);
  });

  it("a payload handed whole to a handler's answer keeps its pictures as files", async () => {
    const reply = await world.discord
      .runCommand({ guildId: world.guild.id, channelId: world.channel.id, user: world.member, name: 'picture-probe' })
      .answer(WAIT);
    expect(pictures(reply).map((f) => [f.name, f.description])).toEqual([['probe.png', 'a black square']]);
    expect((await loadImage(pictures(reply)[0]!.bytes)).width).toBe(40);
  });
});
