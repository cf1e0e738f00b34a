/**
 * Club cups end to end (docs/admins.md#cups): an admin creates, changes, shows and deletes cups
 * with /cup; members see a cup's standings with /season cup. Every bad value gets one message and
 * changes nothing; deleting asks first and happens once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { type MessageView, renderMessageText } from '../../harness/sandbox/discord/index.js';
import { testNow } from '../support/clock.js';
import { postForgedButton } from '../support/forged-button.js';
import { busiestSeason } from '../support/season-data.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 30_000 };

describe('/cup and /season cup', () => {
  let world: LoopbackWorld;
  const clock = testNow();
  let year: number;

  const run = (
    name: 'cup' | 'season',
    subcommand: string,
    options: Record<string, string | number | boolean> = {},
    user = world.admin,
    locale = 'en-GB',
  ) =>
    world.discord
      .runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        name,
        subcommand,
        options,
        locale,
        // A member's client may send what Discord would not offer them (a server owner's override, a forged request).
        bypassCommandPermissions: true,
      })
      .answer(WAIT);
  const text = (view: MessageView) => renderMessageText(view);
  const cups = () => world.bot.store.cups.list(world.guild.id);

  beforeAll(async () => {
    world = await startTestWorld({ now: () => clock, eventorFollowsClock: true });
    year = busiestSeason(world.eventor).year;
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  it('an admin creates a cup; its rules are said back; members see its standings', async () => {
    const created = await run('cup', 'create', {
      name: 'Höstcupen',
      scoring: 'winner-ratio',
      best: 3,
      levels: 'national, distrikt, Närtävling',
      from: `${year}-01-01`,
    });
    expect(created.ephemeral).toBe(true);
    expect(text(created)).toContain('Cup **Höstcupen** created.');
    expect(text(created)).toContain('Winner ratio: 100 × winning time ÷ time');
    expect(text(created)).toContain("Each runner's best 3 races");
    expect(text(created)).toContain(`From ${year}-01-01 to ${year}-12-31`);
    expect(text(created)).toContain('Levels: National event, District event, Local event');
    expect((await cups()).map((c) => c.name)).toEqual(['Höstcupen']);

    const standings = await run('season', 'cup', { cup: 'höstcupen' }, world.member);
    expect(standings.ephemeral).toBe(true);
    expect(standings.embeds[0]!.title).toBe('Höstcupen · standings');
    expect(text(standings)).toMatch(/^> 1\. \*\*[^*]+\*\*: \d+ \(\d races?\)$/m);
    expect(text(standings)).toMatch(/races? counts? so far, the latest/);
    // By the id autocomplete gives, the same.
    const id = String((await cups())[0]!.id);
    const byId = await run('season', 'cup', { cup: id }, world.member);
    expect(byId.embeds[0]!.description).toBe(standings.embeds[0]!.description);
  });

  it('autocomplete offers the cups by name, to members and admins', async () => {
    for (const [name, user] of [
      ['season', world.member],
      ['cup', world.admin],
    ] as const) {
      const choices = await world.discord.autocomplete({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user,
        locale: 'en-GB',
        name,
        subcommand: name === 'season' ? 'cup' : 'show',
        focused: 'cup',
        value: 'höst',
        timeoutMs: 10_000,
      });
      expect(choices.map((c) => c.name)).toEqual(['Höstcupen']);
    }
  });

  it('an edit changes what is given and keeps the rest; "-" clears a list', async () => {
    const edited = await run('cup', 'edit', { cup: 'Höstcupen', scoring: 'place', levels: '-', classes: 'H21, D21' });
    expect(text(edited)).toContain('Cup **Höstcupen** changed.');
    expect(text(edited)).toContain('Place: 25, 20, 16');
    expect(text(edited)).toContain("Each runner's best 3 races");
    expect(text(edited)).not.toContain('Levels:');
    expect(text(edited)).toContain('Classes: H21, D21');
    const renamed = await run('cup', 'edit', { cup: 'Höstcupen', name: 'Klubbmästerskapet', best: 0 });
    expect(text(renamed)).toContain('Every race of each runner');
    expect((await cups()).map((c) => c.name)).toEqual(['Klubbmästerskapet']);
  });

  it('every bad value: one message, nothing changed', async () => {
    const before = await cups();
    const tries: Array<[string, Record<string, string | number>, string]> = [
      [
        'create',
        { name: 'Klubbmästerskapet', scoring: 'place' },
        'There is already a cup called **Klubbmästerskapet**',
      ],
      ['create', { name: 'Ny', scoring: 'place', levels: 'regional' }, 'I do not know the level "regional"'],
      ['create', { name: 'Ny', scoring: 'place', disciplines: 'swimming' }, 'I do not know the discipline "swimming"'],
      ['create', { name: 'Ny', scoring: 'place', from: '2026-02-30' }, '"2026-02-30" is not a date'],
      ['create', { name: 'Ny', scoring: 'place', from: `${year}-06-01`, to: `${year}-05-01` }, 'is after the last'],
      ['create', { name: 'Ny', scoring: 'place', from: `${year}-01-01`, to: `${year + 1}-06-01` }, '366 days at most'],
      ['create', { name: 'Ny', scoring: 'place', events: '30001, abc' }, '"abc" is not an Eventor event id'],
      ['create', { name: '   ', scoring: 'place' }, 'A cup needs a name of 1 to 60 characters'],
      ['edit', { cup: 'Nothing such', best: 2 }, 'There is no cup called "Nothing such"'],
      ['edit', { cup: 'Klubbmästerskapet', from: 'tomorrow' }, '"tomorrow" is not a date'],
      ['delete', { cup: '999999' }, 'There is no cup called "999999"'],
    ];
    for (const [sub, options, said] of tries) {
      const reply = await run('cup', sub, options);
      expect(reply.ephemeral, sub).toBe(true);
      expect(text(reply), JSON.stringify(options)).toContain(said);
      expect(text(reply)).not.toContain('Something went wrong');
    }
    expect(await cups()).toEqual(before);
  });

  it('/cup show lists the cups with their rules; with a cup, its standings', async () => {
    const list = await run('cup', 'show');
    expect(list.embeds[0]!.title).toBe('Cups');
    expect(text(list)).toContain('**Klubbmästerskapet**');
    expect(text(list)).toContain('Classes: H21, D21');
    const one = await run('cup', 'show', { cup: 'Klubbmästerskapet' });
    expect(one.embeds[0]!.title).toBe('Klubbmästerskapet · standings');
  });

  it('members may not create, change or delete cups', async () => {
    const before = await cups();
    for (const [sub, options] of [
      ['create', { name: 'Min cup', scoring: 'place' }],
      ['edit', { cup: 'Klubbmästerskapet', best: 1 }],
      ['delete', { cup: 'Klubbmästerskapet' }],
    ] as const) {
      const reply = await run('cup', sub, options, world.member);
      expect(reply.ephemeral).toBe(true);
      expect(text(reply)).toMatch(/Manage Server/);
    }
    expect(await cups()).toEqual(before);
  });

  it('deleting asks first: Keep keeps it, Delete deletes it once', async () => {
    const ask = async () => {
      const asked = await run('cup', 'delete', { cup: 'Klubbmästerskapet' });
      expect(text(asked)).toContain('Delete the cup **Klubbmästerskapet**?');
      const buttons = asked.components.flatMap((row) => ('components' in row ? row.components : [])) as Array<{
        custom_id: string;
        label: string;
      }>;
      expect(buttons.map((b) => b.label)).toEqual(['Delete', 'Keep']);
      return { message: asked.id, del: buttons[0]!.custom_id, keep: buttons[1]!.custom_id };
    };
    const click = (message: string, customId: string) =>
      world.discord.clickButton({ message, customId, user: world.admin, locale: 'en-GB' }).answer(WAIT);
    const first = await ask();
    const kept = await click(first.message, first.keep);
    expect(text(kept)).toContain('Nothing was deleted.');
    expect(kept.components).toEqual([]);
    expect(await cups()).toHaveLength(1);
    const second = await ask();
    expect(text(await click(second.message, second.del))).toContain('Cup **Klubbmästerskapet** deleted.');
    expect(await cups()).toEqual([]);
    // The same button again (an old message, a forged click): nothing left to delete, said so.
    const again = await postForgedButton(world, second.del);
    expect(text(await click(again, second.del))).toContain('That cup was deleted meanwhile.');
    const audit = await world.bot.store.audit.auditLog(world.guild.id);
    expect(audit.map((e) => e.action).filter((a) => a.startsWith('cup-'))).toEqual([
      'cup-delete',
      'cup-edit',
      'cup-edit',
      'cup-create',
    ]);
    const none = await run('season', 'cup', { cup: 'Klubbmästerskapet' }, world.member);
    expect(text(none)).toContain('This server has no cups yet. An admin creates one with /cup create.');
  });
});
