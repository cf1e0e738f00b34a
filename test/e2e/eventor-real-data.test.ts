/**
 * What real Eventors and real timing programs do that the happy path does not (docs/eventor.md,
 * docs/iof-xml.md#quirks-of-timing-programs).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { instanceOf } from '../../src/club/eventor-access.js';
import { botConfigFromEnv } from '../../src/bot/config.js';
import { ConfigError, eventorConfigFromEnv } from '../../src/config/env.js';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEvent } from '../../harness/sandbox/eventor/dataset.js';
import { startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { instantToLocal } from '../../src/time/zones.js';
import { startTestWorld } from '../support/test-world.js';
import { runningTestClock } from '../support/clock.js';

const WAIT = { timeoutMs: 15_000 };

describe('/status after Eventor refused the key', () => {
  let world: LoopbackWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('says the key is refused right after a command got the refusal, not a cached "works"', async () => {
    world = await startTestWorld({ seed: 3 });
    const w = world;
    const run = (name: string) =>
      w.discord
        .runCommand({ guildId: w.guild.id, channelId: w.channel.id, user: w.member, locale: 'en-GB', name })
        .reply(WAIT);
    // The key works: /status checks it (and the answer is cached).
    expect(renderMessageText(await run('status'))).toContain('works');
    // The club's key is revoked in Eventor; a member's command meets the refusal.
    w.eventor.dataset.revokeKey(w.eventor.dataset.homeClub.id);
    expect(renderMessageText(await run('events'))).toContain("does not accept this server's API key");
    // /status must now tell the truth.
    const status = renderMessageText(await run('status'));
    expect(status).toContain('Eventor refuses the API key');
    expect(status).not.toContain('works');
  });
});

/** A home-club runner with a start time in an event whose draw is out, as the sandbox has it. */
function drawnStarter(world: LoopbackWorld): { event: SandboxEvent; name: string; startTime: string } {
  const ds = world.eventor.dataset;
  const home = ds.homeClub.id;
  for (const event of ds.events.filter((e) => e.hasStartList && e.event.status !== 'canceled')) {
    for (const cs of ds.details(event).startList!.classes) {
      for (const p of cs.persons) {
        const startTime = p.starts[0]?.startTime;
        if (p.organisation?.id === home && p.person && startTime) {
          return { event, name: `${p.person.name.given} ${p.person.name.family}`, startTime };
        }
      }
    }
  }
  throw new Error('the sandbox has no drawn start for the home club');
}

/** The start clock as /starts shows it (HH:MM:SS, seconds dropped when zero). */
function stockholmClock(instant: string): string {
  const { clock } = instantToLocal(instant, 'Europe/Stockholm');
  return clock.endsWith(':00') ? clock.slice(0, 5) : clock;
}

describe('a custom Eventor address that ignores `TimeZone: UTC`', () => {
  let world: LoopbackWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('with a zone configured, the client sends no TimeZone header and reads local times in that zone', async () => {
    const sandbox = await startSandboxEventor({
      port: 0,
      seed: 4,
      ignoresTimeZoneHeader: true,
      now: runningTestClock().now,
    });
    const client = new EventorClient({
      instance: customInstance(sandbox.baseUrl, { nativeTimeZone: 'Europe/Stockholm' }),
      apiKey: sandbox.apiKey,
      retries: 0,
    });
    try {
      const timed = sandbox.dataset.events.find(
        (e) => e.event.start !== null && !e.event.start.endsWith('T22:00:00Z') && !e.event.start.endsWith('T23:00:00Z'),
      )!;
      const event = await client.event({ eventId: timed.id });
      expect(event.start).toBe(timed.event.start);
      const sent = sandbox.requests.find((r) => r.path === `/api/event/${timed.id}`);
      expect(sent?.headerNames.map((h) => h.toLowerCase())).not.toContain('timezone');
    } finally {
      await client.close();
      await sandbox.close();
    }
  });

  it('EVENTOR_TIME_ZONE and a zone in EVENTOR_CUSTOM_URLS reach the instance; a wrong zone is refused by name', () => {
    const base = { DISCORD_TOKEN: 'token', SECRET_KEY: 'x'.repeat(32), EVENTOR_API_KEY: 'k'.repeat(32) };
    const withZone = eventorConfigFromEnv({
      ...base,
      EVENTOR_BASE_URL: 'https://proxy.example.org/api',
      EVENTOR_TIME_ZONE: 'Europe/Oslo',
    });
    expect(withZone.instance).toMatchObject({ nativeTimeZone: 'Europe/Oslo', supportsUtcHeader: false });
    expect(
      eventorConfigFromEnv({ ...base, EVENTOR_BASE_URL: 'https://proxy.example.org/api' }).instance.supportsUtcHeader,
    ).toBe(true);
    expect(() =>
      eventorConfigFromEnv({
        ...base,
        EVENTOR_BASE_URL: 'https://proxy.example.org/api',
        EVENTOR_TIME_ZONE: 'Europe/Osloo',
      }),
    ).toThrow(/EVENTOR_TIME_ZONE/);

    const config = botConfigFromEnv({
      ...base,
      EVENTOR_INSTANCE: 'se',
      EVENTOR_CUSTOM_URLS: 'https://proxy.example.org/api|Europe/Oslo, https://other.example.org/api',
    });
    expect(config.customEventorOrigins).toEqual(['https://proxy.example.org', 'https://other.example.org']);
    expect(instanceOf('custom', 'https://proxy.example.org/api', config.customEventorTimeZones)).toMatchObject({
      nativeTimeZone: 'Europe/Oslo',
      supportsUtcHeader: false,
    });
    expect(instanceOf('custom', 'https://other.example.org/api', config.customEventorTimeZones)).toMatchObject({
      supportsUtcHeader: true,
    });
    let error: unknown;
    try {
      botConfigFromEnv({
        ...base,
        EVENTOR_INSTANCE: 'se',
        EVENTOR_CUSTOM_URLS: 'https://user:secret@proxy.example.org/api|Mars/Base',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('EVENTOR_CUSTOM_URLS: entry 1 of 1');
    expect((error as Error).message).not.toContain('secret');
  });

  it("/starts through the operator's connection (EVENTOR_TIME_ZONE) shows the local start time", async () => {
    world = await startTestWorld({ seed: 5, eventorTimeZone: 'Europe/Stockholm' });
    const w = world;
    const starter = drawnStarter(w);
    const reply = await w.discord
      .runCommand({
        guildId: w.guild.id,
        channelId: w.channel.id,
        user: w.member,
        locale: 'en-GB',
        name: 'starts',
        options: { event: starter.event.id },
      })
      .reply(WAIT);
    expect(renderMessageText(reply).replace(/\\(.)/g, '$1')).toContain(
      `\`${stockholmClock(starter.startTime)}\` ${starter.name}`,
    );
  });

  it('/starts on a server connected by /setup to a custom address with a zone shows the local start time', async () => {
    world = await startTestWorld({ seed: 5, defaultEventor: false, eventorTimeZone: 'Europe/Stockholm' });
    const w = world;
    const opener = w.discord.runCommand({
      guildId: w.guild.id,
      channelId: w.channel.id,
      user: w.admin,
      locale: 'en-GB',
      name: 'setup',
      subcommand: 'eventor',
      options: { base_url: w.eventor.baseUrl },
    });
    const modal = await opener.waitForModal(WAIT);
    const connected = await w.discord
      .submitModal({ user: w.admin, locale: 'en-GB', customId: modal.custom_id, fields: { key: w.eventor.apiKey } })
      .reply(WAIT);
    expect(renderMessageText(connected)).toContain('Connected');
    const starter = drawnStarter(w);
    const reply = await w.discord
      .runCommand({
        guildId: w.guild.id,
        channelId: w.channel.id,
        user: w.member,
        locale: 'en-GB',
        name: 'starts',
        options: { event: starter.event.id },
      })
      .reply(WAIT);
    expect(renderMessageText(reply).replace(/\\(.)/g, '$1')).toContain(
      `\`${stockholmClock(starter.startTime)}\` ${starter.name}`,
    );
  });
});
