import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StartList } from '../../src/eventor/model.js';
import { personalStartItems } from '../../src/feeds/kinds/personal/personal.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { CLUB, ctx, event, startList, textOf } from '../support/render-fixtures.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 10_000 };

describe('a stage and a relay leg in one Norwegian text', () => {
  // A two-day event whose second day is a relay: the member runs leg 3 on day 2.
  const twoDays = event({
    races: [
      {
        id: '2001',
        eventId: '1001',
        name: null,
        date: '2026-12-05T09:00:00Z',
        distance: 'Middle',
        lightCondition: 'Day',
        position: null,
      },
      {
        id: '2002',
        eventId: '1001',
        name: null,
        date: '2026-12-06T09:00:00Z',
        distance: 'Middle',
        lightCondition: 'Day',
        position: null,
      },
    ],
  });
  const runner = {
    id: 'p1',
    name: { given: 'Kari', family: 'Nordmann' },
    sex: null,
    birthDate: null,
    countryCode: null,
  };
  const start = (raceNumber: number) => ({
    raceId: null,
    raceNumber,
    startTime: `2026-12-0${4 + raceNumber}T10:00:00Z`,
    bibNumber: null,
    cards: [],
    course: null,
  });
  const relay: StartList = startList(
    [
      {
        class: { id: 'H21', name: 'H21', shortName: null, resultListMode: 'Default' },
        numberOfEntries: 1,
        courses: [],
        persons: [],
        teams: [
          {
            name: 'Linné 1',
            organisations: [CLUB],
            bibNumber: '7',
            startTime: '2026-12-06T10:00:00Z',
            members: [{ person: runner, organisation: CLUB, leg: 3, legOrder: null, start: start(2) }],
          },
        ],
      },
    ],
    twoDays,
  );
  const individual: StartList = startList(
    [
      {
        class: { id: 'H21', name: 'H21', shortName: null, resultListMode: 'Default' },
        numberOfEntries: 1,
        courses: [],
        teams: [],
        persons: [{ person: runner, organisation: CLUB, starts: [start(2)] }],
      },
    ],
    twoDays,
  );
  const dm = (list: StartList) =>
    textOf(personalStartItems([list], ctx('nb'), { personId: 'p1', own: true, server: null })[0]!.payload);

  it('says "Dag 2" for the stage beside "3. etappe" for the leg, and "Etappe 2" where no leg is shown', () => {
    const text = dm(relay);
    expect(text).toContain('Dag 2');
    expect(text).toContain('3. etappe');
    expect(text).not.toContain('Etappe 2');
    expect(dm(individual)).toContain('Etappe 2');
  });
});

/** What members read, end to end through the real bot and the sandbox Discord. */
describe('wording members read: command names and the audit log', () => {
  let world: LoopbackWorld;

  beforeAll(async () => {
    world = await startTestWorld();
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('/link has a Swedish and a Norwegian name like the other commands, and texts use them', async () => {
    const commands = new Map(world.discord.commands({ guildId: world.guild.id }).map((c) => [c.name, c]));
    expect(commands.get('link')?.name_localizations?.['sv-SE']).toBe('koppla');
    expect(commands.get('link')?.name_localizations?.no).toBe('koble');
    expect(commands.get('link')?.options?.map((o) => o.name_localizations?.no)).toEqual([
      'eventor',
      'forespør',
      'standard',
    ]);
    const reply = await world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.swedishMember,
        locale: 'sv-SE',
        name: 'whoami',
      })
      .reply(WAIT);
    const text = renderMessageText(reply);
    expect(text).toContain('`/koppla`');
    expect(text).not.toContain('/link');
  });

  it('/admin audit says every action in words, never its code', async () => {
    const store = world.bot.store;
    const guildId = world.guild.id;
    await store.audit.audit({ guildId, actorId: world.member.id, personId: null, action: 'login-link' });
    await store.audit.audit({
      guildId,
      actorId: world.member.id,
      personId: null,
      action: 'card',
      detail: 'SI 1 -> SI 2',
    });
    await store.audit.audit({ guildId, actorId: world.admin.id, action: 'eventor-moved', detail: '1 2 3' });
    await store.audit.audit({
      guildId,
      actorId: world.admin.id,
      action: 'some-future-action',
      detail: 'secret-ish detail',
    });
    const read = async (locale: string): Promise<string> =>
      renderMessageText(
        await world.discord
          .runCommand({
            guildId,
            channelId: world.channel.id,
            user: world.admin,
            locale,
            name: 'admin',
            subcommand: 'audit',
          })
          .reply(WAIT),
      );
    const english = await read('en-GB');
    expect(english).toContain('made a one-time Eventor login link');
    expect(english).toContain('changed a chip number in Eventor');
    expect(english).toContain('removed links: 1, link requests: 2, `/notify` subscriptions: 3');
    expect(english).toContain('did something the bot no longer names');
    const swedish = await read('sv-SE');
    expect(swedish).toContain('skapade en engångslänk för inloggning i Eventor');
    expect(swedish).toContain('bytte ett bricknummer i Eventor');
    const norwegian = await read('no');
    expect(norwegian).toContain('lagde en engangslenke for innlogging i Eventor');
    for (const text of [english, swedish, norwegian]) {
      for (const code of ['login-link', '`card`', 'eventor-moved', 'some-future-action', 'secret-ish'])
        expect(text).not.toContain(code);
    }
  });

  it('/feeds reminders says "1 day" for one lead day of 1, "days" for a list', async () => {
    const run = async (options: Record<string, string>, locale = 'en-GB'): Promise<string> =>
      renderMessageText(
        await world.discord
          .runCommand({
            guildId: world.guild.id,
            channelId: world.channel.id,
            user: world.admin,
            locale,
            name: 'feeds',
            subcommand: 'reminders',
            options,
          })
          .reply(WAIT),
      );
    expect(await run({ lead_days: '1' })).toContain('Entry deadline reminders: 1 day before each deadline');
    expect(await run({ lead_days: '1' }, 'sv-SE')).toContain('1 dag före varje stopp');
    expect(await run({ lead_days: '7,1' })).toContain('7, 1 days before each deadline');
  });
});
