import {
  type Client,
  DiscordAPIError,
  Events,
  type Guild,
  GatewayIntentBits,
  type GuildScheduledEvent,
  GuildScheduledEventEntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus,
  Routes,
} from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loginSandboxClient } from '../../harness/sandbox/discord/client.js';
import {
  ErrorCode,
  Permission,
  type SandboxDiscord,
  type SandboxGuild,
  ScheduledEventStatus,
  shardOf,
  startSandboxDiscord,
} from '../../harness/sandbox/discord/index.js';

/**
 * The sandbox Discord's guild scheduled events through the real discord.js client: the routes,
 * Discord's field rules and limits, the permissions bots need since February 2026, the gateway
 * events and the automatic transitions on the sandbox clock (docs/discord.md#scheduled-events).
 */

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-05T12:00:00.000Z');

describe('sandbox Discord: guild scheduled events', () => {
  let sandbox: SandboxDiscord;
  let clock: number;
  let guildRecord: SandboxGuild;
  const clients: Client[] = [];

  const login = async (intents = [GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents]) => {
    const client = await loginSandboxClient(sandbox, { intents });
    clients.push(client);
    return client;
  };
  const guildOf = async (client: Client): Promise<Guild> => client.guilds.fetch(guildRecord.id);

  /** An external event as the calendar feed makes it: a race in two days, four hours long. */
  const race = (overrides: Record<string, unknown> = {}) => ({
    name: 'Sprint-SM, Uppsala',
    scheduledStartTime: new Date(T0 + 48 * HOUR),
    scheduledEndTime: new Date(T0 + 52 * HOUR),
    privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
    entityType: GuildScheduledEventEntityType.External,
    entityMetadata: { location: 'Uppsala, Stadsskogen' },
    description: 'Entry deadline 1 March. 12 club members entered.',
    ...overrides,
  });

  /** The Discord error a call rejected with (fails the test if it did not reject with one). */
  const refusal = async (call: Promise<unknown>): Promise<DiscordAPIError> => {
    const error = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DiscordAPIError);
    return error as DiscordAPIError;
  };

  beforeEach(async () => {
    clock = T0;
    sandbox = await startSandboxDiscord({ now: () => clock });
    guildRecord = sandbox.createGuild({ name: 'OK Linné' });
    sandbox.setBotCanCreateEvents(guildRecord.id, true);
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) await client.destroy();
    await sandbox.close();
  });

  it('creates, fetches, edits and deletes an external event; the bot is its creator', async () => {
    const client = await login();
    const guild = await guildOf(client);
    const created = await guild.scheduledEvents.create({ ...race(), reason: 'Eventor: race 4711 entered' });
    expect(created.creatorId).toBe(sandbox.botUser.id);
    expect(created.status).toBe(GuildScheduledEventStatus.Scheduled);
    expect(created.channelId).toBeNull();
    expect(created.entityMetadata?.location).toBe('Uppsala, Stadsskogen');
    expect(created.scheduledStartTimestamp).toBe(T0 + 48 * HOUR);

    const create = sandbox.requests().find((r) => r.method === 'POST' && r.route?.endsWith('/scheduled-events'));
    expect(create?.status).toBe(200);
    // discord.js percent-encodes the reason; the sandbox keeps it decoded, as Discord's audit log shows it.
    expect(create?.auditLogReason).toBe('Eventor: race 4711 entered');

    const fetched = await guild.scheduledEvents.fetch({ guildScheduledEvent: created.id, force: true });
    expect(fetched.name).toBe('Sprint-SM, Uppsala');
    expect(fetched.userCount).toBe(0);
    const all = await guild.scheduledEvents.fetch();
    expect([...all.keys()]).toEqual([created.id]);
    expect((await fetched.fetchSubscribers()).size).toBe(0);

    const edited = await guild.scheduledEvents.edit(created.id, {
      name: 'Sprint-SM, Uppsala (moved)',
      scheduledStartTime: new Date(T0 + 72 * HOUR),
      scheduledEndTime: new Date(T0 + 76 * HOUR),
      reason: 'Eventor: datum ändrat 5→12 mars',
    });
    expect(edited.name).toBe('Sprint-SM, Uppsala (moved)');
    const patch = sandbox.requests().find((r) => r.method === 'PATCH');
    expect(patch?.auditLogReason).toBe('Eventor: datum ändrat 5→12 mars');
    expect(edited.scheduledStartTimestamp).toBe(T0 + 72 * HOUR);
    expect(sandbox.scheduledEvents(guildRecord.id)).toMatchObject([
      { id: created.id, name: 'Sprint-SM, Uppsala (moved)', start: T0 + 72 * HOUR, end: T0 + 76 * HOUR },
    ]);
    // The description is kept when an edit leaves it out; null clears it.
    expect(edited.description).toBe('Entry deadline 1 March. 12 club members entered.');
    const cleared = (await client.rest.patch(Routes.guildScheduledEvent(guild.id, created.id), {
      body: { description: null },
    })) as { description: string | null };
    expect(cleared.description).toBeNull();

    await guild.scheduledEvents.delete(created.id);
    expect(sandbox.scheduledEvents(guildRecord.id)).toEqual([]);
    const gone = await refusal(guild.scheduledEvents.fetch({ guildScheduledEvent: created.id, force: true }));
    expect([gone.status, gone.code]).toEqual([404, ErrorCode.UnknownGuildScheduledEvent]);
    const again = await refusal(guild.scheduledEvents.delete(created.id));
    expect([again.status, again.code]).toEqual([404, 10070]);
    const edit = await refusal(guild.scheduledEvents.edit(created.id, { name: 'x' }));
    expect(edit.code).toBe(10070);
  });

  it('refuses what Discord refuses for an external event, with field errors', async () => {
    const guild = await guildOf(await login());
    const fieldsOf = async (call: Promise<unknown>): Promise<string[]> => {
      const error = await refusal(call);
      expect([error.status, error.code]).toEqual([400, ErrorCode.InvalidFormBody]);
      const errors = (error.rawError as { errors?: Record<string, unknown> }).errors ?? {};
      const paths: string[] = [];
      const walk = (node: Record<string, unknown>, path: string[]): void => {
        for (const [key, value] of Object.entries(node)) {
          if (key === '_errors') paths.push(path.join('.'));
          else walk(value as Record<string, unknown>, [...path, key]);
        }
      };
      walk(errors, []);
      return paths.sort();
    };
    const post = (body: Record<string, unknown>) =>
      guild.client.rest.post(Routes.guildScheduledEvents(guild.id), { body });
    const valid = {
      name: 'Sprint-SM',
      privacy_level: 2,
      entity_type: 3,
      scheduled_start_time: new Date(T0 + 48 * HOUR).toISOString(),
      scheduled_end_time: new Date(T0 + 52 * HOUR).toISOString(),
      entity_metadata: { location: 'Uppsala' },
    };

    expect(await fieldsOf(guild.scheduledEvents.create(race({ name: 'N'.repeat(101) })))).toEqual(['name']);
    expect(await fieldsOf(guild.scheduledEvents.create(race({ name: '' })))).toEqual(['name']);
    expect(await fieldsOf(guild.scheduledEvents.create(race({ description: 'd'.repeat(1001) })))).toEqual([
      'description',
    ]);
    expect(
      await fieldsOf(guild.scheduledEvents.create(race({ entityMetadata: { location: 'L'.repeat(101) } }))),
    ).toEqual(['entity_metadata.location']);
    expect(await fieldsOf(guild.scheduledEvents.create(race({ entityMetadata: {} })))).toEqual([
      'entity_metadata.location',
    ]);
    expect(await fieldsOf(guild.scheduledEvents.create(race({ scheduledEndTime: undefined })))).toEqual([
      'scheduled_end_time',
    ]);
    expect(await fieldsOf(guild.scheduledEvents.create(race({ scheduledEndTime: new Date(T0 + 47 * HOUR) })))).toEqual([
      'scheduled_end_time',
    ]);
    expect(await fieldsOf(guild.scheduledEvents.create(race({ scheduledStartTime: new Date(T0 - HOUR) })))).toEqual([
      'scheduled_start_time',
    ]);
    expect(await fieldsOf(post({ ...valid, privacy_level: 1 }))).toEqual(['privacy_level']);
    expect(await fieldsOf(post({ ...valid, channel_id: '123' }))).toEqual(['channel_id']);
    expect(await fieldsOf(post({ ...valid, entity_type: 9 }))).toEqual(['entity_type']);
    expect(await fieldsOf(post({ ...valid, scheduled_start_time: 'next Sunday' }))).toEqual(['scheduled_start_time']);
    // Nothing was made by the refusals; the valid body is accepted.
    expect(sandbox.scheduledEvents(guildRecord.id)).toEqual([]);
    await post(valid);
    expect(sandbox.scheduledEvents(guildRecord.id)).toHaveLength(1);
  });

  it('allows only SCHEDULED→ACTIVE→COMPLETED and SCHEDULED→CANCELED; finished events stay finished', async () => {
    const guild = await guildOf(await login());
    const a = await guild.scheduledEvents.create(race());
    const bad = await refusal(guild.scheduledEvents.edit(a.id, { status: GuildScheduledEventStatus.Completed }));
    expect([bad.status, bad.code]).toEqual([400, ErrorCode.InvalidFormBody]);
    expect((await guild.scheduledEvents.edit(a.id, { status: GuildScheduledEventStatus.Active })).status).toBe(
      GuildScheduledEventStatus.Active,
    );
    const back = await refusal(
      guild.client.rest.patch(Routes.guildScheduledEvent(guild.id, a.id), {
        body: { status: GuildScheduledEventStatus.Scheduled },
      }),
    );
    expect(back.code).toBe(ErrorCode.InvalidFormBody);
    const text = await refusal(
      guild.client.rest.patch(Routes.guildScheduledEvent(guild.id, a.id), { body: { status: '3' } }),
    );
    expect(text.code).toBe(ErrorCode.InvalidFormBody);
    const cancelActive = await refusal(
      guild.scheduledEvents.edit(a.id, { status: GuildScheduledEventStatus.Canceled }),
    );
    expect(cancelActive.code).toBe(ErrorCode.InvalidFormBody);
    await guild.scheduledEvents.edit(a.id, { status: GuildScheduledEventStatus.Completed });
    const finished = await refusal(guild.scheduledEvents.edit(a.id, { name: 'Renamed' }));
    expect([finished.status, finished.code]).toEqual([400, 180000]);

    const b = await guild.scheduledEvents.create(race({ name: 'Cancelled race' }));
    const cancelled = await guild.scheduledEvents.edit(b.id, { status: GuildScheduledEventStatus.Canceled });
    expect(cancelled.status).toBe(GuildScheduledEventStatus.Canceled);
    const after = await refusal(guild.scheduledEvents.edit(b.id, { status: GuildScheduledEventStatus.Active }));
    expect(after.code).toBe(180000);
    // A finished event can still be deleted.
    await guild.scheduledEvents.delete(b.id);
    expect(sandbox.scheduledEvents(guildRecord.id).map((e) => e.name)).toEqual(['Sprint-SM, Uppsala']);
  });

  it('moves an external event to ACTIVE at its start and COMPLETED at its end on the sandbox clock', async () => {
    const client = await login();
    const guild = await guildOf(client);
    const updates: GuildScheduledEventStatus[] = [];
    client.on(Events.GuildScheduledEventUpdate, (_old, event) => updates.push(event.status));
    const event = await guild.scheduledEvents.create(race());

    clock = T0 + 48 * HOUR;
    const fetch = () => guild.scheduledEvents.fetch({ guildScheduledEvent: event.id, force: true });
    expect((await fetch()).status).toBe(GuildScheduledEventStatus.Active);
    clock = T0 + 52 * HOUR;
    expect(sandbox.scheduledEvents(guildRecord.id)[0]?.status).toBe(ScheduledEventStatus.Completed);
    expect((await fetch()).status).toBe(GuildScheduledEventStatus.Completed);
    await sandbox.waitFor(() => updates.length >= 2, { description: 'two GUILD_SCHEDULED_EVENT_UPDATEs' });
    expect(updates).toEqual([GuildScheduledEventStatus.Active, GuildScheduledEventStatus.Completed]);
    // Any request of the bot's makes due transitions happen too, so its cache hears of them unasked.
    const second = await guild.scheduledEvents.create(
      race({ name: 'Second', scheduledStartTime: clock + HOUR, scheduledEndTime: clock + 5 * HOUR }),
    );
    clock = second.scheduledStartTimestamp!;
    await guild.channels.fetch();
    await sandbox.waitFor(() => updates.length >= 3, { description: 'the UPDATE of the second event' });
    expect(guild.scheduledEvents.cache.get(second.id)?.status).toBe(GuildScheduledEventStatus.Active);
    // The bot's own edit racing the end meets a finished event.
    const late = await refusal(guild.scheduledEvents.edit(event.id, { name: 'Too late' }));
    expect(late.code).toBe(180000);
  });

  it('keeps at most 100 scheduled or active events in a guild (30038); completed ones do not count', async () => {
    const guild = await guildOf(await login());
    // 99 made by members, so the test needs few REST calls; the limit counts everyone's events.
    const owner = guildRecord.ownerId;
    const made = Array.from({ length: 99 }, (_, i) =>
      sandbox.createScheduledEvent(guildRecord.id, {
        creator: owner,
        name: `Training ${i + 1}`,
        start: T0 + HOUR + i * 60_000,
        end: T0 + 2 * HOUR + i * 60_000,
        location: 'Clubhouse',
      }),
    );
    const hundredth = await guild.scheduledEvents.create(race());
    const full = await refusal(guild.scheduledEvents.create(race({ name: 'One too many' })));
    expect([full.status, full.code]).toEqual([400, ErrorCode.MaximumUncompletedScheduledEvents]);
    expect(sandbox.scheduledEvents(guildRecord.id)).toHaveLength(100);

    // Deleting one, or one ending on the clock, makes room.
    await guild.client.rest.delete(Routes.guildScheduledEvent(guild.id, hundredth.id));
    await guild.scheduledEvents.create(race({ name: 'Fits again' }));
    clock = made[0]!.end!;
    await guild.scheduledEvents.create(race({ name: 'After the first training ended' }));
    expect(sandbox.scheduledEvents(guildRecord.id)).toHaveLength(101);
  });

  it('needs Create Events to create, Create or Manage Events for its own events and Manage Events for others', async () => {
    const guild = await guildOf(await login());
    const owner = guildRecord.ownerId;
    const theirs = sandbox.createScheduledEvent(guildRecord.id, {
      creator: owner,
      name: 'Club night',
      start: T0 + 24 * HOUR,
      end: T0 + 26 * HOUR,
      location: 'Clubhouse',
    });
    expect(theirs.creatorId).toBe(owner);
    const own = await guild.scheduledEvents.create(race());

    // Create Events only: its own events, not others'.
    const others = await refusal(guild.scheduledEvents.edit(theirs.id, { name: 'Club night!' }));
    expect([others.status, others.code]).toEqual([403, ErrorCode.MissingPermissions]);
    expect((await refusal(guild.scheduledEvents.delete(theirs.id))).code).toBe(50013);
    await guild.scheduledEvents.edit(own.id, { name: 'Own, edited' });

    // Neither bit: nothing may be created or changed, but reading is allowed.
    sandbox.setBotCanCreateEvents(guildRecord.id, false);
    const create = await refusal(guild.scheduledEvents.create(race({ name: 'Refused' })));
    expect([create.status, create.code]).toEqual([403, 50013]);
    expect((await refusal(guild.scheduledEvents.edit(own.id, { name: 'No' }))).code).toBe(50013);
    expect((await guild.scheduledEvents.fetch()).size).toBe(2);

    // Manage Events alone: edit and delete anyone's, but not create (the February 2026 change).
    sandbox.setBotCanManageEvents(guildRecord.id, true);
    expect((await refusal(guild.scheduledEvents.create(race({ name: 'Still refused' })))).code).toBe(50013);
    expect((await guild.scheduledEvents.edit(theirs.id, { name: 'Club night!' })).name).toBe('Club night!');
    await guild.scheduledEvents.edit(own.id, { name: 'Own, edited again' });
    await guild.scheduledEvents.delete(theirs.id);
    expect(sandbox.scheduledEvents(guildRecord.id).map((e) => e.name)).toEqual(['Own, edited again']);
    const role = sandbox.world.roles.get(guildRecord.botRoleId)!;
    expect(role.permissions & (Permission.CreateEvents | Permission.ManageEvents)).toBe(Permission.ManageEvents);
  });

  it('sends CREATE, UPDATE and DELETE to clients with the scheduled-events intent, and lists events in GUILD_CREATE', async () => {
    const withIntent = await login();
    const without = await login([GatewayIntentBits.Guilds]);
    const seen: string[] = [];
    const unseen: string[] = [];
    withIntent.on(Events.GuildScheduledEventCreate, (e) => seen.push(`create ${e.name}`));
    withIntent.on(Events.GuildScheduledEventUpdate, (_o, e) => seen.push(`update ${e.name}`));
    withIntent.on(Events.GuildScheduledEventDelete, (e) => seen.push(`delete ${(e as GuildScheduledEvent).name}`));
    for (const event of [
      Events.GuildScheduledEventCreate,
      Events.GuildScheduledEventUpdate,
      Events.GuildScheduledEventDelete,
    ] as const) {
      without.on(event, () => unseen.push(event));
    }

    const guild = await guildOf(withIntent);
    const event = await guild.scheduledEvents.create(race());
    await guild.scheduledEvents.edit(event.id, { name: 'Renamed' });
    // A human's event, and an admin deleting the bot's event in the client.
    sandbox.createScheduledEvent(guildRecord.id, {
      creator: guildRecord.ownerId,
      name: 'Club night',
      start: T0 + HOUR,
      end: T0 + 2 * HOUR,
      location: 'Clubhouse',
    });
    sandbox.deleteScheduledEvent(guildRecord.id, event.id);
    await sandbox.waitFor(() => seen.length >= 4, { description: 'four scheduled-event dispatches' });
    expect(seen).toEqual(['create Sprint-SM, Uppsala', 'update Renamed', 'create Club night', 'delete Renamed']);

    // A client logging in now finds the guild's events in its cache from GUILD_CREATE.
    const later = await login();
    const cached = later.guilds.cache.get(guildRecord.id)?.scheduledEvents.cache;
    expect(cached?.map((e) => e.name)).toEqual(['Club night']);
    // The client without the intent got none of the dispatches (it has seen everything the other one saw).
    expect(unseen).toEqual([]);
  });

  it('dispatches a guild’s scheduled events only on the shard that holds the guild', async () => {
    // Snowflakes whose timestamp part is 1000 and 1001: shards 0 and 1 of 2.
    const ids = [1000n, 1001n].map((t) => String(t << 22n));
    expect(ids.map((id) => shardOf(id, 2))).toEqual([0, 1]);
    const guilds = ids.map((id, i) => sandbox.createGuild({ id, name: `Club ${i}` }));
    const seen: string[] = [];
    for (const shard of [0, 1]) {
      const client = await loginSandboxClient(sandbox, {
        shards: [shard],
        shardCount: 2,
        intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildScheduledEvents],
      });
      clients.push(client);
      client.on(Events.GuildScheduledEventCreate, (e) => seen.push(`shard${shard}:${e.name}`));
    }
    for (const [i, guild] of guilds.entries()) {
      sandbox.createScheduledEvent(guild.id, {
        creator: guild.ownerId,
        name: `Training ${i}`,
        start: T0 + HOUR,
        end: T0 + 2 * HOUR,
        location: 'Clubhouse',
      });
    }
    await sandbox.waitFor(() => seen.length >= 2, { description: 'two scheduled-event creates' });
    expect(seen.sort()).toEqual(['shard0:Training 0', 'shard1:Training 1']);
  });
});
