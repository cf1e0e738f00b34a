import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassResult, PersonResult, RaceStart } from '../../src/eventor/model.js';
import { formatElapsed } from '../../src/eventor/time.js';
import { analyseResultList } from '../../src/splits/result-list.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { instantToLocal } from '../../src/time/zones.js';
import { startTestWorld } from '../support/test-world.js';

const DAY = 86_400_000;
const WAIT = { timeoutMs: 15_000 };

interface Starter {
  personId: string;
  name: string;
  family: string;
  className: string;
  start: RaceStart;
  event: SandboxEvent;
}
interface Placed {
  personId: string;
  name: string;
  className: string;
  result: PersonResult['results'][number];
  classResult: ClassResult;
  event: SandboxEvent;
}

function personName(p: { name: { given: string; family: string } } | null | undefined): string {
  return p ? `${p.name.given} ${p.name.family}` : '';
}

function epoch(instant: string): number {
  return Math.floor(Date.parse(instant) / 1000);
}

function clock(instant: string): string {
  const { clock } = instantToLocal(instant, 'Europe/Stockholm');
  return clock.endsWith(':00') ? clock.slice(0, 5) : clock;
}

function componentIds(view: MessageView): Array<{ id: string; disabled: boolean }> {
  const out: Array<{ id: string; disabled: boolean }> = [];
  for (const row of view.components)
    for (const c of row.components ?? []) if (c.custom_id) out.push({ id: c.custom_id, disabled: c.disabled === true });
  return out;
}

describe('member commands end to end: /starts, /results, /activities, /activity', () => {
  let world: LoopbackWorld;
  let home: string;
  let starter: Starter;
  let placed: Placed;
  let recent: SandboxEvent[];
  const run = (
    user: LoopbackWorld['member'],
    name: string,
    options: Record<string, string | number | boolean> = {},
    locale?: string,
  ) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        name,
        options,
        ...(locale ? { locale } : {}),
      })
      .answer(WAIT);

  beforeAll(async () => {
    world = await startTestWorld();
    const ds = world.eventor.dataset;
    home = ds.homeClub.id;
    const now = world.eventor.now().getTime();
    // The sandbox's first future event is tomorrow with its draw out.
    const drawn = ds.events.find((e) => e.hasStartList && !e.hasResults && e.event.status !== 'canceled')!;
    const starters: Starter[] = [];
    for (const cs of ds.details(drawn).startList!.classes) {
      for (const p of cs.persons) {
        const start = p.starts[0];
        if (p.organisation?.id === home && p.person?.id && start?.startTime) {
          starters.push({
            personId: p.person.id,
            name: personName(p.person),
            family: p.person.name.family,
            className: cs.class.name,
            start,
            event: drawn,
          });
        }
      }
    }
    recent = ds.events.filter(
      (e) =>
        e.hasResults &&
        e.event.races.length === 1 &&
        e.shape === 'single' &&
        Date.parse(e.event.start!) > now - 85 * DAY,
    );
    const placings: Placed[] = [];
    for (const ev of recent) {
      for (const cr of ds.details(ev).resultList!.classes) {
        for (const p of cr.persons) {
          const r = p.results[0];
          if (
            p.organisation?.id === home &&
            p.person?.id &&
            r?.status === 'OK' &&
            r.position !== null &&
            r.position > 1 &&
            r.timeBehind
          ) {
            placings.push({
              personId: p.person.id,
              name: personName(p.person),
              className: cr.class.name,
              result: r,
              classResult: cr,
              event: ev,
            });
          }
        }
      }
    }
    // Prefer one member with both a start tomorrow and a recent placing.
    starter = starters.find((s) => placings.some((p) => p.personId === s.personId)) ?? starters[0]!;
    placed = placings.find((p) => p.personId === starter.personId) ?? placings[0]!;
    await world.bot.store.links.linkPerson(world.guild.id, world.member.id, starter.personId, 'admin');
    await world.bot.store.links.linkPerson(world.guild.id, world.swedishMember.id, placed.personId, 'admin');
  });
  afterAll(async () => {
    await world?.close();
  });

  it('found the sandbox data the tests need', () => {
    expect(starter).toBeDefined();
    expect(placed).toBeDefined();
  });

  it('/starts answers a linked member privately with their class and start time', async () => {
    const reply = await run(world.member, 'starts');
    expect(reply.ephemeral).toBe(true);
    const text = renderMessageText(reply);
    expect(text).toContain(`Start times: ${starter.name}`);
    expect(text).toContain(starter.className);
    expect(text).toContain(`<t:${epoch(starter.start.startTime!)}:D>`);
    expect(text).toContain(clock(starter.start.startTime!));
  });

  it('/starts share:true answers in the channel', async () => {
    const reply = await run(world.member, 'starts', { share: true });
    expect(reply.ephemeral).toBe(false);
    expect(renderMessageText(reply)).toContain(starter.className);
  });

  it('/starts for another member and the club list are public, in Swedish', async () => {
    const other = await run(world.swedishMember, 'starts', { member: starter.personId }, 'sv-SE');
    expect(other.ephemeral).toBe(false);
    expect(renderMessageText(other)).toContain(`Starttider: ${starter.name}`);
    const club = await run(world.swedishMember, 'starts', { event: starter.event.id }, 'sv-SE');
    expect(club.ephemeral).toBe(false);
    const text = renderMessageText(club);
    expect(text).toContain('Startlista:');
    expect(text).toContain(starter.className);
    expect(text).toContain(`\`${clock(starter.start.startTime!)}\` ${starter.name}`);
  });

  it('/starts of an event whose draw is not out says the start list is not published yet', async () => {
    const ds = world.eventor.dataset;
    const later = ds.events.find(
      (e) =>
        !e.hasStartList &&
        e.event.status !== 'canceled' &&
        Date.parse(e.event.start!) > world.eventor.now().getTime() + 5 * DAY,
    )!;
    const english = await run(world.member, 'starts', { event: later.id });
    expect(renderMessageText(english)).toContain('The start list has not been published yet');
    const swedish = await run(world.swedishMember, 'starts', { event: later.id }, 'sv-SE');
    expect(renderMessageText(swedish)).toContain('Startlistan är inte publicerad än');
  });

  it("/starts and /results without a link and without a member say so, in the member's language", async () => {
    const english = await run(world.admin, 'starts', {}, 'en-US');
    expect(english.ephemeral).toBe(true);
    expect(renderMessageText(english)).toContain('is not linked to an Eventor person yet');
    const swedish = await run(world.admin, 'results', {}, 'sv-SE');
    expect(renderMessageText(swedish)).toContain('Ditt Discord-konto är inte kopplat till en person i Eventor');
  });

  it('/results answers a member privately with class, place and time behind', async () => {
    const reply = await run(world.swedishMember, 'results', {}, 'sv-SE');
    expect(reply.ephemeral).toBe(true);
    const text = renderMessageText(reply);
    expect(text).toContain(`Resultat: ${placed.name}`);
    expect(text).toContain(placed.className);
    expect(text).toContain(`+${formatElapsed(placed.result.timeBehind!)}`);
    expect(text).toMatch(new RegExp(`${placed.result.position}(\\.|/)`));
    const shared = await run(world.swedishMember, 'results', { share: true }, 'sv-SE');
    expect(shared.ephemeral).toBe(false);
  });

  it('/results for a member in one event shows that result with a split table, publicly', async () => {
    const reply = await run(world.member, 'results', { member: placed.personId, event: placed.event.id, splits: true });
    expect(reply.ephemeral).toBe(false);
    const text = renderMessageText(reply);
    expect(text).toContain(`Results: ${placed.name}`);
    expect(text).toContain(placed.event.name);
    expect(text).toContain(`+${formatElapsed(placed.result.timeBehind!)}`);
    expect(text).toContain('Finish');
    expect(text).toContain(formatElapsed(placed.result.time!));
    // Ranked against the event's complete list: the leg rank and time lost columns are there.
    if (placed.result.splits.length > 0) expect(text).toMatch(/^(> )?\s*#\s+Code\s+Leg\s+Total\s+Rk\s+Lost$/m);
  });

  it('registers the commands with names in every language', () => {
    const commands = world.discord.commands({ guildId: world.guild.id });
    const results = commands.find((c) => c.name === 'results');
    expect(results?.name_localizations?.['sv-SE']).toBe('resultat');
    expect(results?.name_localizations?.no).toBe('resultater');
    const splits = results?.options?.find((o) => o.name === 'splits');
    expect(splits?.name_localizations?.['sv-SE']).toBe('sträcktider');
    expect(splits?.name_localizations?.no).toBe('strekktider');
    expect(commands.find((c) => c.name === 'activities')?.name_localizations?.['en-GB']).toBe('activities');
  });

  it('/results of an event lists the club with positions, time behind and split tables', async () => {
    const ds = world.eventor.dataset;
    const ev = placed.event;
    const full = ds.details(ev).resultList!;
    const nonAdditional = (r: PersonResult['results'][number]) => r.splits.filter((s) => s.status !== 'Additional');
    const codes = (r: PersonResult['results'][number]) =>
      nonAdditional(r)
        .map((s) => s.controlCode)
        .join();
    // A club member with splits in a class where enough runners ran the same course for time lost
    // to be estimated (docs/splits.md#too-few-runners): the sandbox's classes are mostly small.
    let target: { name: string; className: string; result: PersonResult['results'][number]; field: number } | undefined;
    for (const cr of full.classes) {
      const p = cr.persons.find(
        (m) => m.organisation?.id === home && m.results[0]?.status === 'OK' && nonAdditional(m.results[0]).length >= 2,
      );
      if (!p) continue;
      const result = p.results[0]!;
      const field = cr.persons.filter((o) => o.results[0] && codes(o.results[0]) === codes(result)).length;
      if (field >= 5) {
        target = { name: personName(p.person), className: cr.class.name, result, field };
        break;
      }
    }
    expect(target).toBeDefined();
    const reply = await run(world.member, 'results', { event: ev.id, splits: true, top: 2 });
    expect(reply.ephemeral).toBe(false);
    // The target's class may be on a later page: every page's text, the buttons followed (bounded).
    let text = renderMessageText(reply);
    let page = reply;
    for (let n = 0; n < 10 && !text.includes(`**${target!.name}**`); n++) {
      const next = componentIds(page)
        .filter((c) => !c.disabled)
        .at(-1);
      if (!next) break;
      page = await world.discord.clickButton({ message: reply.id, user: world.member, customId: next.id }).reply(WAIT);
      text += renderMessageText(page);
    }
    expect(text).toContain(`Results: ${ev.name}`);
    const { result } = target!;
    expect(text).toContain(`**${target!.name}**`);
    expect(text).toContain(target!.className);
    if (result.timeBehind) expect(text).toContain(`+${formatElapsed(result.timeBehind)}`);
    const [first, second] = nonAdditional(result);
    expect(first?.time != null && second?.time != null).toBe(true);
    const leg = second!.time! - first!.time!;
    // The leg rank among everyone in the class on the same course (1, 1, 3), not only the club's.
    const others = full.classes
      .find((c) => c.class.name === target!.className)!
      .persons.map((p) => p.results[0])
      .filter((r) => r !== undefined && codes(r) === codes(result))
      .map((r) => nonAdditional(r!))
      .filter(([a, b]) => a?.time != null && b?.time != null)
      .map(([a, b]) => b!.time! - a!.time!);
    const rank = 1 + others.filter((t) => Math.round(t * 10) < Math.round(leg * 10)).length;
    expect(others.length).toBe(target!.field);
    // The time lost as the analysis of the complete list estimates it (docs/splits.md#time-lost).
    const analysed = analyseResultList(full)
      .filter((a) => a.class === target!.className)
      .flatMap((a) => a.courses.flatMap((c) => c.results))
      .find((r) => r.name === target!.name && r.time === result.time);
    expect(analysed?.legs[1]?.lost).not.toBeNull();
    const lost = analysed!.legs[1]!.lost!;
    const lostText = Math.round(lost) === 0 ? '0' : `+${formatElapsed(lost)}`;
    const quote = (value: string) => value.replace(/[.:+]/g, '\\$&');
    expect(text).toMatch(/^(> )?\s*#\s+Code\s+Leg\s+Total\s+Rk\s+Lost$/m);
    expect(text).toMatch(
      new RegExp(
        `^(> )?\\s*2\\s+${second!.controlCode}\\s+${quote(formatElapsed(leg))}\\s+${quote(formatElapsed(second!.time!))}\\s+${rank}\\s+${quote(lostText)}$`,
        'm',
      ),
    );
  });

  /** The event with results and the most runners (its club results need pages). */
  const heaviestResultsEvent = () => {
    const ds = world.eventor.dataset;
    return ds.events
      .filter((e) => e.hasResults)
      .map((e) => ({
        e,
        size: ds.details(e).resultList!.classes.reduce((n, c) => n + c.persons.length + c.teams.length, 0),
      }))
      .sort((a, b) => b.size - a.size)[0]!.e;
  };

  it("/results of a class-heavy event with splits and top 10 stays within Discord's limits, with page buttons", async () => {
    const heavy = heaviestResultsEvent();
    const reply = await run(world.member, 'results', { event: heavy.id, splits: true, top: 10 });
    expect(reply.embeds.length).toBeGreaterThan(0);
    expect(renderMessageText(reply)).toContain('Results:');
    const next = componentIds(reply).find((c) => !c.disabled);
    // Large enough to need pages: a list that fitted on one would not test the limits.
    expect(next).toBeDefined();
    if (next) {
      expect(next.id.length).toBeLessThanOrEqual(100);
      const page2 = await world.discord
        .clickButton({ message: reply.id, user: world.member, customId: next.id })
        .reply(WAIT);
      expect(renderMessageText(page2)).toMatch(/Page 2 of \d+/);
    }
  });

  it('autocompletes members, events and activities by a typed word, at most 25', async () => {
    const base = { guildId: world.guild.id, channelId: world.channel.id, user: world.member, timeoutMs: 5000 };
    const members = await world.discord.autocomplete({
      ...base,
      name: 'starts',
      focused: 'member',
      value: starter.family.toLowerCase(),
    });
    expect(members.length).toBeGreaterThan(0);
    expect(members.length).toBeLessThanOrEqual(25);
    expect(members.every((c) => c.name.includes(starter.family))).toBe(true);
    expect(members.map((c) => c.value)).toContain(starter.personId);
    const word = starter.event.name.split(' ')[0]!;
    const events = await world.discord.autocomplete({ ...base, name: 'results', focused: 'event', value: word });
    expect(events.length).toBeLessThanOrEqual(25);
    expect(events.map((c) => c.value)).toContain(starter.event.id);
    expect(events.every((c) => c.name.includes(word))).toBe(true);
    const activities = await world.discord.autocomplete({
      ...base,
      name: 'activity',
      focused: 'activity',
      value: 'fjallnas',
    });
    expect(activities.length).toBeGreaterThan(0);
    expect(activities.length).toBeLessThanOrEqual(25);
    expect(activities.every((c) => c.name.includes('Fjällnäs'))).toBe(true);
  });

  it('/activities lists the coming activities with registrations, in English and Swedish; /activity shows one', async () => {
    const ds = world.eventor.dataset;
    const coming = ds.activities
      .filter(
        (a) =>
          a.organisationId === home &&
          a.startTime &&
          Date.parse(a.startTime) > world.eventor.now().getTime() &&
          Date.parse(a.startTime) < world.eventor.now().getTime() + 59 * DAY,
      )
      .sort((a, b) => Date.parse(a.startTime!) - Date.parse(b.startTime!));
    const first = coming[0]!;
    const english = await run(world.member, 'activities');
    expect(english.ephemeral).toBe(false);
    const text = renderMessageText(english);
    expect(text).toContain('Club activities');
    expect(text).toContain(`<t:${epoch(first.startTime!)}:f>`);
    expect(text).toContain(`Registered: ${first.registrationCount}`);
    const swedish = await run(world.swedishMember, 'activities', {}, 'sv-SE');
    expect(renderMessageText(swedish)).toContain('Klubbaktiviteter');
    expect(renderMessageText(swedish)).toContain(`Anmälda: ${first.registrationCount}`);
    const named = coming.find((a) => /^[\p{L} ]+$/u.test(a.name)) ?? first;
    const one = await run(world.swedishMember, 'activity', { activity: named.id }, 'sv-SE');
    const card = renderMessageText(one);
    expect(card).toContain(named.name.includes('<') ? 'Torsdagsträning' : named.name);
    expect(card).toContain(`Anmälda: ${named.registrationCount}`);
    const norwegian = await run(world.member, 'activities', {}, 'no');
    expect(renderMessageText(norwegian)).toContain(`Påmeldte: ${first.registrationCount}`);
    const unknown = await run(world.member, 'activity', { activity: 'no such thing' });
    expect(unknown.ephemeral).toBe(true);
    expect(renderMessageText(unknown)).toContain('I could not find that activity');
  });

  it("/activities refuses unreadable and reversed dates, in the member's language", async () => {
    const bad = await run(world.member, 'activities', { from: '2026-02-30' });
    expect(bad.ephemeral).toBe(true);
    expect(renderMessageText(bad)).toContain('I cannot read "2026-02-30" as a date');
    const reversed = await run(world.member, 'activities', { from: '2026-06-10', to: '2026-06-01' });
    expect(reversed.ephemeral).toBe(true);
    expect(renderMessageText(reversed)).toContain('The start date (2026-06-10) is after the end date (2026-06-01).');
    const swedish = await run(world.swedishMember, 'activities', { from: '2026-06-10', to: '2026-06-01' }, 'sv-SE');
    expect(renderMessageText(swedish)).toContain('Startdatumet (2026-06-10) ligger efter slutdatumet (2026-06-01).');
    const badSwedish = await run(world.swedishMember, 'activities', { to: 'imorgon' }, 'sv-SE');
    expect(renderMessageText(badSwedish)).toContain('Jag kan inte läsa "imorgon" som ett datum');
  });

  it("/results with splits shows the plain split table when the event's complete list cannot be had", async () => {
    const ds = world.eventor.dataset;
    const askedFor = (eventId: string) =>
      world.eventor.requests.some((r) => /\/results\/event$/i.test(r.path) && Object.values(r.query).includes(eventId));
    // A club member's result with splits in an event whose complete list no test has asked for.
    let found: { personId: string; event: SandboxEvent; time: number } | undefined;
    for (const ev of recent.filter((e) => !askedFor(e.id))) {
      for (const cr of ds.details(ev).resultList!.classes) {
        const p = cr.persons.find(
          (m) =>
            m.organisation?.id === home &&
            m.person?.id &&
            m.results[0]?.status === 'OK' &&
            m.results[0].splits.length >= 2,
        );
        if (p) found = { personId: p.person!.id!, event: ev, time: p.results[0]!.time! };
        if (found) break;
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    // Refused outright (no retries): the member's own list still comes, the complete one does not.
    world.eventor.faults.add({ path: '/api/results/event', kind: 'status', status: 400 });
    try {
      const reply = await run(world.member, 'results', {
        member: found!.personId,
        event: found!.event.id,
        splits: true,
      });
      const text = renderMessageText(reply);
      expect(text).toContain(formatElapsed(found!.time));
      expect(text).toMatch(/^(> )?\s*#\s+Code\s+Leg\s+Total$/m);
      expect(text).not.toContain('Lost');
      expect(world.logLines.some((line) => line.includes('split analysis left out'))).toBe(true);
    } finally {
      world.eventor.faults.clear();
    }
  });

  it('tells the member in Swedish when Eventor fails, without a crash', async () => {
    // An event not asked for before, so no cached answer can stand in for Eventor.
    const untouched = recent.find((e) => e.id !== placed.event.id) ?? recent[0]!;
    world.eventor.faults.add({ path: '/api/results/organisation', kind: 'status', status: 503, times: 50 });
    try {
      const reply = await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user: world.swedishMember,
          locale: 'sv-SE',
          name: 'results',
          options: { event: untouched.id, top: 1 },
        })
        .reply({ timeoutMs: 25_000 });
      expect(renderMessageText(reply)).toContain('Eventor svarar inte just nu.');
    } finally {
      world.eventor.faults.clear();
    }
  });
});
