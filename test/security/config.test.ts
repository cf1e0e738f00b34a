/**
 * Credentials in an Eventor address (`https://user:password@host/api`) and the size cap setting:
 * refused at startup with one clear line that never quotes the secret (through the configuration
 * functions and through the real command line), and never in a link the bot posts, even when such
 * an address reached the database some other way (performed end to end with the real bot).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { botConfigFromEnv } from '../../src/bot/config.js';
import { type Io, main } from '../../src/cli/main.js';
import { ConfigError, eventorConfigFromEnv } from '../../src/config/env.js';
import { customInstance } from '../../src/eventor/instances.js';
import { renderMessageText } from '../../harness/sandbox/discord/index.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const USER = 'clubadmin';
const PASSWORD = 'S3cr3t"pw&x=1';
const ENCODED_PASSWORD = encodeURIComponent(PASSWORD);
const SECRETS = [USER, PASSWORD, ENCODED_PASSWORD, 'S3cr3t'];

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

function expectNoSecret(text: string): void {
  for (const secret of SECRETS) expect(text).not.toContain(secret);
}

const BASE = {
  DISCORD_TOKEN: 'sandbox.config-test-token',
  SECRET_KEY: 'config-test-secret-key-0123456789',
  EVENTOR_INSTANCE: 'se',
  EVENTOR_API_KEY: 'config-test-api-key-0123456789',
};

describe('credentials in an Eventor address are refused with one line that does not quote them', () => {
  const withCredentials = `https://${USER}:${ENCODED_PASSWORD}@eventor.example.org/api`;

  it('EVENTOR_BASE_URL, through eventorConfigFromEnv and botConfigFromEnv', () => {
    for (const problems of [
      problemsOf(() =>
        eventorConfigFromEnv({ EVENTOR_BASE_URL: withCredentials, EVENTOR_API_KEY: BASE.EVENTOR_API_KEY }),
      ),
      problemsOf(() => botConfigFromEnv({ ...BASE, EVENTOR_BASE_URL: withCredentials })),
    ]) {
      expect(problems).toEqual([
        'EVENTOR_BASE_URL must not contain a user name or password (user:password@); the key goes in EVENTOR_API_KEY',
      ]);
      expectNoSecret(problems.join('\n'));
    }
    // A user name alone is a credential too.
    expect(
      problemsOf(() =>
        eventorConfigFromEnv({ EVENTOR_BASE_URL: `https://${USER}@eventor.example.org/api`, EVENTOR_API_KEY: 'k' }),
      )[0],
    ).toMatch(/user name or password/);
  });

  it('EVENTOR_CUSTOM_URLS entries, named by their position; a scheme-less one is not quoted either', () => {
    const problems = problemsOf(() =>
      botConfigFromEnv({
        ...BASE,
        EVENTOR_CUSTOM_URLS: `https://eventor.example.org/api, ${withCredentials}, ${USER}:${PASSWORD}@proxy.example.org`,
      }),
    );
    expect(problems).toEqual([
      'EVENTOR_CUSTOM_URLS: entry 2 of 3 must not contain a user name or password (user:password@); the key goes in EVENTOR_API_KEY',
      'EVENTOR_CUSTOM_URLS: entry 3 of 3 is not an http(s) URL',
    ]);
    expectNoSecret(problems.join('\n'));
    // Clean entries still work.
    expect(
      botConfigFromEnv({ ...BASE, EVENTOR_CUSTOM_URLS: 'https://eventor.example.org/api' }).customEventorOrigins,
    ).toEqual(['https://eventor.example.org']);
  });

  describe('the command line (exit 2, the secret in neither stdout nor stderr)', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-config-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    const capture = (env: NodeJS.ProcessEnv): Io & { all: () => string; stderr: () => string } => {
      let out = '';
      let err = '';
      return {
        out: (t) => {
          out += t;
        },
        err: (t) => {
          err += t;
        },
        env,
        all: () => `${out}\n${err}`,
        stderr: () => err,
      };
    };

    const cases: Array<[string, string[], NodeJS.ProcessEnv]> = [
      ['start with EVENTOR_BASE_URL', ['start'], { EVENTOR_BASE_URL: withCredentials }],
      ['start with EVENTOR_CUSTOM_URLS', ['start'], { EVENTOR_CUSTOM_URLS: withCredentials }],
      ['tick with EVENTOR_BASE_URL', ['tick'], { EVENTOR_BASE_URL: withCredentials }],
      ['query with EVENTOR_BASE_URL', ['query', 'events'], { EVENTOR_BASE_URL: withCredentials }],
    ];
    for (const [name, argv, extra] of cases) {
      it(name, async () => {
        const io = capture({ ...BASE, DATABASE_PATH: path.join(dir, 'never-opened.sqlite'), ...extra });
        expect(await main(argv, io)).toBe(2);
        expect(io.stderr()).toMatch(/must not contain a user name or password/);
        expect(io.stderr().match(/user name or password/g)).toHaveLength(1);
        expect(io.stderr()).not.toMatch(/\n\s+at /);
        expectNoSecret(io.all());
      });
    }
  });
});

describe('EVENTOR_MAX_RESPONSE_MB', () => {
  it('sets the largest cap; the scale reaches both the default Eventor and every other', () => {
    expect(
      eventorConfigFromEnv({ EVENTOR_INSTANCE: 'se', EVENTOR_API_KEY: 'k', EVENTOR_MAX_RESPONSE_MB: '384' })
        .responseLimitScale,
    ).toBe(1.5);
    expect(eventorConfigFromEnv({ EVENTOR_INSTANCE: 'se', EVENTOR_API_KEY: 'k' }).responseLimitScale).toBe(1);
    expect(
      botConfigFromEnv({ ...BASE, EVENTOR_INSTANCE: '', EVENTOR_API_KEY: '', EVENTOR_MAX_RESPONSE_MB: '64' })
        .eventorResponseLimitScale,
    ).toBe(0.25);
  });

  it('refuses what is not a size, once per problem, naming the range', () => {
    for (const bad of ['lots', '0', '-5', '100000']) {
      const problems = problemsOf(() => botConfigFromEnv({ ...BASE, EVENTOR_MAX_RESPONSE_MB: bad }));
      expect(problems, bad).toEqual([
        "EVENTOR_MAX_RESPONSE_MB must be a number of MiB above 0 and at most 511 (the largest answers' cap; default 256)",
      ]);
    }
  });
});

describe('no credential in a link the bot posts', () => {
  it('customInstance drops them from the base URL and the web address (the backstop)', () => {
    const instance = customInstance(`https://${USER}:${ENCODED_PASSWORD}@eventor.example.org/api`);
    expect(instance.baseUrl).toBe('https://eventor.example.org/api');
    expect(instance.webUrl).toBe('https://eventor.example.org');
    expectNoSecret(JSON.stringify(instance));
  });

  describe('end to end: a server whose stored address carries credentials (real bot, sandbox Discord and Eventor)', () => {
    let world: LoopbackWorld | undefined;
    let eventor: SandboxEventor;
    afterEach(async () => {
      await world?.close();
      world = undefined;
    });

    it('/events and /event answer with links to Eventor that hold no user name or password, and none is sent to Eventor', async () => {
      world = await startTestWorld({ defaultEventor: false });
      const w = world;
      eventor = w.eventor;
      const stored = eventor.baseUrl.replace('http://', `http://${USER}:${ENCODED_PASSWORD}@`);
      // Written straight into the database, as an older version or a hand edit could have.
      await w.bot.store.servers.connectEventor(w.guild.id, {
        instance: 'custom',
        baseUrl: stored,
        apiKey: eventor.apiKey,
        organisation: { id: eventor.dataset.homeClub.id, name: eventor.dataset.homeClub.name },
      });
      const run = (name: string, options: Record<string, string>) =>
        w.discord
          .runCommand({ guildId: w.guild.id, channelId: w.channel.id, user: w.member, locale: 'en-GB', name, options })
          .reply({ timeoutMs: 15_000 });
      const list = await run('events', { days: '60' });
      const eventId = /"value":"(\d+)"/.exec(JSON.stringify(list.components))?.[1];
      expect(eventId, 'an event to pick in the /events answer').toBeTruthy();
      const card = await run('event', { event: eventId! });
      const shown = [list, card].map((reply) => `${JSON.stringify(reply)}\n${renderMessageText(reply)}`).join('\n');
      expect(shown).toContain(`${new URL(eventor.baseUrl).origin}/Events/Show/${eventId}`);
      expectNoSecret(shown);
      expect(shown).not.toMatch(/\/\/[^/\s"]*@/);
      expect(eventor.requests.length).toBeGreaterThan(0);
      for (const request of eventor.requests) expect(request.headerNames).not.toContain('authorization');
      expectNoSecret(world.logLines.join('\n'));
    });
  });
});

describe('SANDBOX_CLOCK: a shifted clock only against a sandbox Eventor on loopback', () => {
  const SANDBOX = { ...BASE, EVENTOR_INSTANCE: undefined, EVENTOR_BASE_URL: 'http://127.0.0.1:9/api' };

  it('is taken, as an instant, when every Eventor the bot may call is on loopback', () => {
    expect(botConfigFromEnv({ ...SANDBOX, SANDBOX_CLOCK: '2027-01-01T00:30:00Z' }).sandboxClock?.toISOString()).toBe(
      '2027-01-01T00:30:00.000Z',
    );
    expect(
      botConfigFromEnv({
        ...SANDBOX,
        SANDBOX_CLOCK: '2026-11-18T10:00:00+01:00',
        EVENTOR_CUSTOM_URLS: 'http://localhost:8/api',
      }).sandboxClock?.toISOString(),
    ).toBe('2026-11-18T09:00:00.000Z');
    expect(botConfigFromEnv({ ...SANDBOX, SANDBOX_CLOCK: ' ' }).sandboxClock).toBeUndefined();
  });

  it('is refused with a real Eventor, with a non-loopback custom address, or with no default Eventor', () => {
    const refusal = /SANDBOX_CLOCK is for the sandbox Eventor only/;
    expect(problemsOf(() => botConfigFromEnv({ ...BASE, SANDBOX_CLOCK: '2026-11-18T09:00:00Z' }))).toEqual([
      expect.stringMatching(refusal),
    ]);
    expect(
      problemsOf(() =>
        botConfigFromEnv({
          ...SANDBOX,
          SANDBOX_CLOCK: '2026-11-18T09:00:00Z',
          EVENTOR_CUSTOM_URLS: 'https://eventor-proxy.example.org/api',
        }),
      ),
    ).toEqual([expect.stringMatching(refusal)]);
    expect(
      problemsOf(() =>
        botConfigFromEnv({
          DISCORD_TOKEN: BASE.DISCORD_TOKEN,
          SECRET_KEY: BASE.SECRET_KEY,
          SANDBOX_CLOCK: '2026-11-18T09:00:00Z',
        }),
      ),
    ).toEqual([expect.stringMatching(refusal)]);
  });

  it('reads no public LiveResultat on the shifted clock: live results off unless both addresses are on loopback', () => {
    const clock = { ...SANDBOX, SANDBOX_CLOCK: '2026-11-18T09:00:00Z' };
    // Left unset, the public services would be read: live results are off instead.
    expect(botConfigFromEnv(clock).liveEndpoints).toBeNull();
    // Without the sandbox clock the public services are the defaults.
    expect(botConfigFromEnv(SANDBOX).liveEndpoints).toEqual({
      restUrl: 'https://api.orienteering.services',
      legacyUrl: 'https://liveresultat.orientering.se/api.php',
    });
    const sandboxLive = {
      LIVERESULTAT_URL: 'http://127.0.0.1:7',
      LIVERESULTAT_LEGACY_URL: 'http://127.0.0.1:7/api.php',
    };
    expect(botConfigFromEnv({ ...clock, ...sandboxLive }).liveEndpoints).toEqual({
      restUrl: 'http://127.0.0.1:7',
      legacyUrl: 'http://127.0.0.1:7/api.php',
    });
    const refusal = /SANDBOX_CLOCK is for the sandbox LiveResultat only/;
    // One of the two left unset would be the public service; one set elsewhere is a real one.
    for (const live of [
      { LIVERESULTAT_URL: 'http://127.0.0.1:7' },
      { ...sandboxLive, LIVERESULTAT_LEGACY_URL: 'https://liveresultat.orientering.se/api.php' },
      { ...sandboxLive, LIVERESULTAT_URL: 'https://live.example.org' },
    ])
      expect(problemsOf(() => botConfigFromEnv({ ...clock, ...live }))).toEqual([expect.stringMatching(refusal)]);
  });

  it('must name its zone: a bare date or local time would be read in the machine’s', () => {
    for (const text of ['2026-11-18', '2026-11-18T09:00:00', 'tomorrow', '2026-13-45T09:00:00Z'])
      expect(problemsOf(() => botConfigFromEnv({ ...SANDBOX, SANDBOX_CLOCK: text }))).toEqual([
        'SANDBOX_CLOCK must be an instant with its zone, e.g. 2026-11-18T09:00:00Z',
      ]);
  });
});
