import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MemberCooldown } from '../../src/bot/cooldown.js';
import { MEMBER_COOLDOWNS } from '../../src/bot/router.js';
import {
  type InteractionHandle,
  renderMessageText,
  type SandboxChannel,
  type SandboxGuild,
  type SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import type { SandboxPerson } from '../../harness/sandbox/eventor/dataset.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { worldSql, worldTables } from '../support/world-store.js';
import { startTestWorld } from '../support/test-world.js';
import { runningTestClock } from '../support/clock.js';

const WAIT = { timeoutMs: 15_000 };
const MINUTE = 60_000;
const LINK = /https?:\/\/[^\s"'<>)]+\/login\/[A-Za-z0-9_-]+/;

describe('limits that hold under pressure, end to end (sandbox Discord, sandbox Eventor, the real bot with its real budgets)', () => {
  let world: LoopbackWorld;
  // From the test instant at real speed (Discord's deadlines need it), movable forward past a window.
  const clock = runningTestClock();
  const now = clock.now;
  let second: SandboxGuild;
  let lobby: SandboxChannel;
  let home: SandboxPerson[];
  let foreign: SandboxPerson[];
  let users = 0;

  beforeAll(async () => {
    world = await startTestWorld({ now, memberCooldowns: MEMBER_COOLDOWNS });
    home = world.eventor.dataset.homeClub.members;
    foreign = world.eventor.dataset.clubs.find((c) => c.id !== world.eventor.dataset.homeClub.id)!.members.slice(0, 3);
    expect(foreign).toHaveLength(3);
    // A second server of the same club, on the same default Eventor.
    ({ guild: second, lobby } = await world.addServer('Same club, second server', { defaultEventor: true }));
  });
  afterAll(async () => {
    await world?.close();
  });

  /** A new member of both servers, so no test's counts spill into another's. */
  const newMember = (locale = 'en-GB'): SandboxUser => {
    users += 1;
    const user = world.discord.createMember(world.guild.id, {
      username: `member${users}`,
      globalName: `Member ${users}`,
      locale,
    });
    world.discord.addMember(second.id, user);
    return user;
  };
  const where = (guild: 'first' | 'second') =>
    guild === 'first'
      ? { guildId: world.guild.id, channelId: world.channel.id }
      : { guildId: second.id, channelId: lobby.id };
  const run = (
    user: SandboxUser,
    name: string,
    options: Record<string, string> = {},
    guild: 'first' | 'second' = 'first',
    subcommand?: string,
  ): InteractionHandle =>
    world.discord.runCommand({
      ...where(guild),
      user,
      locale: user.locale,
      name,
      options,
      ...(subcommand ? { subcommand } : {}),
    });
  const privateText = async (handle: InteractionHandle): Promise<string> => {
    const reply = await handle.reply(WAIT);
    expect(reply.ephemeral).toBe(true);
    return renderMessageText(reply);
  };
  const loginUrlRequests = () =>
    world.eventor.requests.filter((r) => r.path.toLowerCase() === '/api/externalloginurl').length;
  const authenticateRequests = () =>
    world.eventor.requests.filter((r) => r.path.toLowerCase() === '/api/authenticateperson').length;
  const linkDms = (user: SandboxUser) =>
    world.discord.dms(user).filter((dm) => LINK.test(JSON.stringify(dm.components)));
  /** Waits (bounded) until `user` has `count` DMs with a link, then a moment more to see that no further one comes. */
  const settleLinkDms = async (user: SandboxUser, count: number): Promise<number> => {
    if (count > 0) await world.discord.waitForDm(user, () => linkDms(user).length >= count, WAIT);
    await new Promise((resolve) => setTimeout(resolve, 300));
    return linkDms(user).length;
  };
  const withCredentials = async (
    user: SandboxUser,
    guild: 'first' | 'second',
    username: string,
    password: string,
  ): Promise<string> => {
    const modal = await run(user, 'link', {}, guild, 'eventor').waitForModal(WAIT);
    expect(modal.custom_id).toBe('link:credentials');
    return privateText(
      world.discord.submitModal({
        user,
        locale: user.locale,
        customId: modal.custom_id,
        fields: { username, password },
      }),
    );
  };
  const forgetMe = async (user: SandboxUser): Promise<void> => {
    const ask = await run(user, 'forget-me').reply(WAIT);
    const confirm = JSON.stringify(ask.components).match(/"(forget-me:confirm:[^"]*)"/)?.[1];
    expect(confirm, 'a confirm button').toBeDefined();
    const done = await world.discord
      .clickButton({ message: ask.id, customId: confirm!, user, locale: 'en-GB' })
      .reply(WAIT);
    expect(renderMessageText(done)).toContain('the bot holds nothing about you any more');
  };

  describe('/login: three links per Discord user per ten minutes, in total', () => {
    let racer: SandboxUser;

    it('six /login fired at once by one member issue exactly three links; the other three are refused without asking Eventor', async () => {
      racer = newMember();
      await world.bot.store.links.linkPerson(world.guild.id, racer.id, home[10]!.person.id!, 'credentials');
      const asked = loginUrlRequests();
      const handles = Array.from({ length: 6 }, () => run(racer, 'login'));
      const texts = await Promise.all(handles.map(privateText));
      expect(texts.filter((t) => t.includes('in your direct messages'))).toHaveLength(3);
      const refusals = texts.filter((t) => t.includes('three login links in the last ten minutes'));
      expect(refusals).toHaveLength(3);
      for (const refusal of refusals) expect(refusal).toMatch(/<t:\d+:R>/);
      expect(await settleLinkDms(racer, 3)).toBe(3);
      expect(loginUrlRequests() - asked).toBe(3);
    });

    it('/forget-me does not reset the count: linked again at once, the member is still refused', async () => {
      await forgetMe(racer);
      expect(await world.bot.store.links.linkedPersons(world.guild.id, racer.id)).toEqual([]);
      await world.bot.store.links.linkPerson(world.guild.id, racer.id, home[10]!.person.id!, 'credentials');
      const asked = loginUrlRequests();
      expect(await privateText(run(racer, 'login'))).toContain('three login links in the last ten minutes');
      expect(loginUrlRequests()).toBe(asked);
      expect(await settleLinkDms(racer, 0)).toBe(3);
    });

    it('the throttle table holds only a keyed hash of the user id and times: no user id in clear text', async () => {
      const columns = (await worldSql(
        world,
        world.databaseUrl === undefined
          ? "SELECT name FROM pragma_table_info('throttle_events') ORDER BY cid"
          : "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'throttle_events' ORDER BY ordinal_position",
      )) as Array<{ name: string }>;
      expect(columns.map((c) => c.name)).toEqual(['id', 'scope', 'subject', 'at']);
      const rows = (await worldSql(
        world,
        "SELECT scope, subject, at FROM throttle_events WHERE scope = 'login-link'",
      )) as Array<{ scope: string; subject: string; at: string }>;
      expect(rows.length).toBeGreaterThanOrEqual(3);
      for (const row of rows) {
        expect(JSON.stringify(row)).not.toContain(racer.id);
        expect(row.subject).toMatch(/^[A-Za-z0-9_-]{43}$/);
      }
      // Nor in any row of any table once /forget-me has run (the link made again since then was the
      // only row naming the member), and the count still holds when the member links again.
      await world.bot.services.privacy.forgetUser(racer.id);
      const tables = await worldTables(world);
      expect(tables).toEqual(expect.arrayContaining(['throttle_events', 'member_links', 'audit_log']));
      for (const table of tables)
        expect(JSON.stringify(await worldSql(world, `SELECT * FROM "${table}"`)), table).not.toContain(racer.id);
      await world.bot.store.links.linkPerson(world.guild.id, racer.id, home[10]!.person.id!, 'credentials');
      expect(await privateText(run(racer, 'login'))).toContain('three login links in the last ten minutes');
    });

    it('[SQLite only] nor anywhere in the file or its write-ahead log once /forget-me has run', async () => {
      // The link made again since then is the only row naming the member: drop it and look at the
      // bytes. secure_delete is always on, and /forget-me empties the write-ahead log after its transaction.
      await world.bot.services.privacy.forgetUser(racer.id);
      const bytes = Buffer.concat([
        await readFile(world.databasePath),
        await readFile(`${world.databasePath}-wal`).catch(() => Buffer.alloc(0)),
      ]);
      expect(bytes.includes(Buffer.from(racer.id))).toBe(false);
      await world.bot.store.links.linkPerson(world.guild.id, racer.id, home[10]!.person.id!, 'credentials');
      expect(await privateText(run(racer, 'login'))).toContain('three login links in the last ten minutes');
    });

    it('once the window has passed, the member gets a link again', async () => {
      clock.advance(10 * MINUTE + 5_000);
      const asked = loginUrlRequests();
      expect(await privateText(run(racer, 'login'))).toContain('in your direct messages');
      expect(await settleLinkDms(racer, 4)).toBe(4);
      expect(loginUrlRequests()).toBe(asked + 1);
    });

    it('one member in two servers of the same club gets three links in total, not three per server', async () => {
      const both = newMember();
      await world.bot.store.links.linkPerson(world.guild.id, both.id, home[11]!.person.id!, 'credentials');
      await world.bot.store.links.linkPerson(second.id, both.id, home[11]!.person.id!, 'credentials');
      const asked = loginUrlRequests();
      const texts = await Promise.all(
        [
          run(both, 'login', {}, 'first'),
          run(both, 'login', {}, 'second'),
          run(both, 'login', {}, 'first'),
          run(both, 'login', {}, 'second'),
        ].map(privateText),
      );
      expect(texts.filter((t) => t.includes('in your direct messages'))).toHaveLength(3);
      expect(texts.filter((t) => t.includes('three login links in the last ten minutes'))).toHaveLength(1);
      expect(await settleLinkDms(both, 3)).toBe(3);
      expect(loginUrlRequests() - asked).toBe(3);
      // Whichever server asks next is refused too.
      expect(await privateText(run(both, 'login', {}, 'second'))).toContain(
        'three login links in the last ten minutes',
      );
      expect(loginUrlRequests() - asked).toBe(3);
    });
  });

  describe('/link eventor: five wrong passwords per Eventor user name per fifteen minutes, and no password oracle', () => {
    /** The user names (folded) whose wrong passwords were counted, for the look at the file's bytes. */
    const tried: string[] = [];

    it('two accounts in two servers share one count per user name; the sixth try, even with the right password, never reaches Eventor', async () => {
      const target = home[12]!;
      const first = newMember();
      const other = newMember('sv-SE');
      const asked = authenticateRequests();
      // The user name as typed varies; folded, it is one name.
      expect(await withCredentials(first, 'first', target.username, 'wrong-1')).toContain(
        'Eventor did not accept that user name and password',
      );
      expect(await withCredentials(first, 'first', ` ${target.username.toUpperCase()} `, 'wrong-2')).toContain(
        'Eventor did not accept that user name and password',
      );
      expect(await withCredentials(first, 'first', target.username, 'wrong-3')).toContain(
        'Eventor did not accept that user name and password',
      );
      expect(await withCredentials(other, 'second', target.username, 'wrong-4')).toContain(
        'Eventor godtog inte det användarnamnet och lösenordet',
      );
      expect(await withCredentials(other, 'second', target.username.toUpperCase(), 'wrong-5')).toContain(
        'Eventor godtog inte det användarnamnet och lösenordet',
      );
      expect(authenticateRequests() - asked).toBe(5);
      // Neither account has reached its own limit of five: the user name's limit refuses.
      const refused = await withCredentials(other, 'second', target.username, target.password);
      expect(refused).toMatch(
        /För många felaktiga lösenord för det användarnamnet i Eventor på sistone\. Vänta 1[45] min/,
      );
      expect(await withCredentials(newMember(), 'first', target.username, target.password)).toContain(
        'Too many wrong passwords for that Eventor user name',
      );
      expect(authenticateRequests() - asked).toBe(5);
      expect(await world.bot.store.links.linkedPersons(second.id, other.id)).toEqual([]);
      // The user name is in the database only as a keyed hash: no row of any table holds it, in any case.
      const folded = target.username.toLowerCase();
      tried.push(folded);
      for (const table of await worldTables(world)) {
        const rows = JSON.stringify(await worldSql(world, `SELECT * FROM "${table}"`)).toLowerCase();
        expect(rows.includes(folded), table).toBe(false);
      }
      // After the window, the right password links.
      clock.advance(15 * MINUTE + 5_000);
      expect(await withCredentials(other, 'second', target.username, target.password)).toContain(
        'Klart: ditt Discord-konto är nu kopplat till',
      );
      expect((await world.bot.store.links.linkedPersons(second.id, other.id)).map((l) => l.personId)).toEqual([
        target.person.id,
      ]);
    });

    it('[SQLite only] the user name is not in the file or its write-ahead log either', async () => {
      expect(tried).toHaveLength(1);
      const bytes = Buffer.concat([
        await readFile(world.databasePath),
        await readFile(`${world.databasePath}-wal`).catch(() => Buffer.alloc(0)),
      ]);
      expect(bytes.includes(Buffer.from(tried[0]!))).toBe(false);
    });

    it('forms submitted at once from seven accounts for one user name: exactly five reach Eventor', async () => {
      const target = home[13]!;
      const accounts = Array.from({ length: 7 }, () => newMember());
      // The slash commands first (each shows its form), then every form is submitted at once.
      const modals = await Promise.all(
        accounts.map((user) => run(user, 'link', {}, 'first', 'eventor').waitForModal(WAIT)),
      );
      const asked = authenticateRequests();
      const texts = await Promise.all(
        accounts.map((user, i) =>
          privateText(
            world.discord.submitModal({
              user,
              locale: 'en-GB',
              customId: modals[i]!.custom_id,
              fields: { username: target.username, password: `guess-${i}` },
            }),
          ),
        ),
      );
      expect(texts.filter((t) => t.includes('Eventor did not accept that user name and password'))).toHaveLength(5);
      expect(texts.filter((t) => t.includes('Too many wrong passwords for that Eventor user name'))).toHaveLength(2);
      expect(authenticateRequests() - asked).toBe(5);
    });

    it('the right password of someone outside the club gets, byte for byte, the answer of a wrong password, and counts as a failure', async () => {
      const user = newMember();
      const [outsider, svOutsider, nbOutsider] = foreign as [SandboxPerson, SandboxPerson, SandboxPerson];
      const wrong = await withCredentials(user, 'first', outsider.username, `${outsider.password}-not`);
      const right = await withCredentials(user, 'first', outsider.username, outsider.password);
      expect(right).toBe(wrong);
      expect(await world.bot.store.links.linkedPersons(world.guild.id, user.id)).toEqual([]);
      expect(
        (await world.bot.store.audit.auditLog(world.guild.id)).filter(
          (e) => e.action === 'link-failed' && e.actorId === user.id,
        ),
      ).toHaveLength(2);
      // Both count against the user name, the right one included.
      expect(
        (
          await world.bot.store.throttles.throttled(
            'link-failure-username',
            outsider.username.toLowerCase(),
            2,
            15 * MINUTE,
          )
        ).limited,
      ).toBe(true);
      expect(
        (
          await world.bot.store.throttles.throttled(
            'link-failure-username',
            outsider.username.toLowerCase(),
            3,
            15 * MINUTE,
          )
        ).limited,
      ).toBe(false);
      // In Swedish and Norwegian too.
      const sv = newMember('sv-SE');
      expect(await withCredentials(sv, 'first', svOutsider.username, svOutsider.password)).toBe(
        await withCredentials(sv, 'first', svOutsider.username, 'fel'),
      );
      const nb = newMember('no');
      expect(await withCredentials(nb, 'first', nbOutsider.username, nbOutsider.password)).toBe(
        await withCredentials(nb, 'first', nbOutsider.username, 'feil'),
      );
    });
  });

  describe('a per-member cooldown on commands that call Eventor', () => {
    it('fifteen /event with made-up ids at once: ten reach Eventor, five are told to slow down; another member at the same moment is not', async () => {
      clock.advance(MINUTE);
      const burster = newMember();
      const bystander = newMember();
      const ids = Array.from({ length: 15 }, (_, i) => String(987_650_000 + i));
      const bystanderId = '987659999';
      const reached = (id: string) =>
        world.eventor.requests.some(
          (r) => r.path.includes(id) || Object.values(r.query).some((v) => v.split(',').includes(id)),
        );
      const burst = ids.map((id) => run(burster, 'event', { event: id }));
      const alongside = run(bystander, 'event', { event: bystanderId });
      const texts = await Promise.all(burst.map(async (h) => renderMessageText(await h.answer(WAIT))));
      const slowed = texts.filter((t) => t.includes('Please slow down and try again in'));
      expect(slowed).toHaveLength(5);
      for (const text of slowed) {
        const seconds = Number(/try again in (\d+) s/.exec(text)?.[1]);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(20);
      }
      expect(texts.filter((t) => t.includes('could not find that event'))).toHaveLength(10);
      expect(ids.filter(reached)).toHaveLength(10);
      // The bystander's command was answered as usual, and reached Eventor.
      expect(renderMessageText(await alongside.answer(WAIT))).toContain('could not find that event');
      expect(reached(bystanderId)).toBe(true);
      // Commands that never ask Eventor are not held back: /help answers.
      expect(renderMessageText(await run(burster, 'help').reply(WAIT))).not.toContain('slow down');
      // In the member's language, and over once the window has passed.
      const swedish = await world.discord
        .runCommand({
          ...where('first'),
          user: burster,
          locale: 'sv-SE',
          name: 'event',
          options: { event: '987659998' },
        })
        .reply(WAIT);
      expect(renderMessageText(swedish)).toMatch(/försök igen om \d+ s/);
      expect(reached('987659998')).toBe(false);
      clock.advance(21_000);
      expect(renderMessageText(await run(burster, 'event', { event: '987659997' }).answer(WAIT))).toContain(
        'could not find that event',
      );
      expect(reached('987659997')).toBe(true);
    });
  });
});

describe('/link eventor: the per-member limit of wrong passwords survives /forget-me and a restart of the bot on the same database', () => {
  it('five wrong passwords, /forget-me, a restart: the next form, even with the right password, is refused without asking Eventor', async () => {
    const world = await startTestWorld();
    let restarted: Awaited<ReturnType<(typeof import('../../src/bot/bot.js'))['startBot']>> | null = null;
    try {
      const home = world.eventor.dataset.homeClub.members;
      const guesser = world.discord.createMember(world.guild.id, {
        username: 'restarter',
        globalName: 'Restarter',
        locale: 'en-GB',
      });
      const authenticateRequests = () =>
        world.eventor.requests.filter((r) => r.path.toLowerCase() === '/api/authenticateperson').length;
      const withCredentials = async (username: string, password: string): Promise<string> => {
        const modal = await world.discord
          .runCommand({
            guildId: world.guild.id,
            channelId: world.channel.id,
            user: guesser,
            locale: 'en-GB',
            name: 'link',
            subcommand: 'eventor',
          })
          .waitForModal(WAIT);
        const reply = await world.discord
          .submitModal({ user: guesser, locale: 'en-GB', customId: modal.custom_id, fields: { username, password } })
          .reply(WAIT);
        return renderMessageText(reply);
      };
      // Five user names, one guess each: only the member's own limit can refuse what follows.
      for (const [i, person] of home.slice(20, 25).entries())
        expect(await withCredentials(person.username, `wrong-${i}`)).toContain(
          'Eventor did not accept that user name and password',
        );
      // /forget-me empties the audit log of the member's failures…
      const ask = await world.discord
        .runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user: guesser,
          locale: 'en-GB',
          name: 'forget-me',
        })
        .reply(WAIT);
      const confirm = JSON.stringify(ask.components).match(/"(forget-me:confirm:[^"]*)"/)?.[1];
      expect(confirm, 'a confirm button').toBeDefined();
      await world.discord
        .clickButton({ message: ask.id, customId: confirm!, user: guesser, locale: 'en-GB' })
        .reply(WAIT);
      expect(
        (await world.bot.store.audit.recentActions(world.guild.id, guesser.id, 'link-failed', new Date(0))).count,
      ).toBe(0);
      // …and the bot restarts on the same database: its modules loaded afresh, as a new process would.
      await world.bot.stop();
      vi.resetModules();
      const { startBot } = await import('../../src/bot/bot.js');
      const { COMMANDS: commands } = await import('../../commands/index.js');
      const { createLogger } = await import('../../src/log/logger.js');
      restarted = await startBot({
        config: world.config,
        log: createLogger({ level: 'error', write: () => undefined }),
        commands,
        scheduler: false,
        cooldowns: null,
        now: () => world.eventor.now(),
      });
      const target = home[25]!;
      const asked = authenticateRequests();
      expect(await withCredentials(target.username, target.password)).toMatch(
        /Too many wrong passwords\. Please wait 1[45] min/,
      );
      expect(authenticateRequests()).toBe(asked);
      expect(await restarted.store.links.linkedPersons(world.guild.id, guesser.id)).toEqual([]);
    } finally {
      await restarted?.stop();
      await world.close();
    }
  });
});

describe('MemberCooldown', () => {
  it('allows `limit` per window, says how long to wait, and counts refusals as nothing', () => {
    const cooldown = new MemberCooldown({ limit: 3, windowMs: 1_000, maxMembers: 10 });
    expect([0, 100, 200].map((at) => cooldown.take('a', at))).toEqual([0, 0, 0]);
    expect(cooldown.take('a', 300)).toBe(700);
    expect(cooldown.take('a', 999)).toBe(1);
    expect(cooldown.take('b', 999)).toBe(0);
    expect(cooldown.take('a', 1_000)).toBe(0);
    expect(cooldown.take('a', 1_050)).toBe(50);
  });

  it('tracks a bounded number of members, forgetting the one seen longest ago', () => {
    const cooldown = new MemberCooldown({ limit: 1, windowMs: 60_000, maxMembers: 100 });
    for (let i = 0; i < 250; i++) cooldown.take(`member-${i}`, 0);
    expect(cooldown.size).toBe(100);
    expect(cooldown.take('member-249', 1)).toBeGreaterThan(0);
    expect(cooldown.take('member-0', 1)).toBe(0);
  });
});
