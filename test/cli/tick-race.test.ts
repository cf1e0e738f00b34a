import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxDiscord } from '../../harness/sandbox/discord/index.js';
import type { SandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';
import { resultsLedgerRow, serverWithResultsFeed, withDatabase } from '../support/results-feed.js';
import { clubFinisherId, recentClubResultsEvent } from '../support/sandbox-events.js';

const TRIALS = 3;
const PROCESSES = 3;
/**
 * How long the first process's edit is held for the others to reach the same item: long enough for
 * processes started together on a busy machine, and what each trial costs when the claim keeps
 * the others away (then nobody else comes).
 */
const HOLD_MS = 8_000;

/** `eventor-bot tick` as its own process; its exit code, or a failure after `ms`. */
const tick = (env: NodeJS.ProcessEnv, ms: number) => runProgram(['tick'], { env, timeoutMs: ms });

describe('eventor-bot tick: several processes at once on one database post each item once', () => {
  let setup: OperatorSetup;
  let eventor: SandboxEventor;
  let discord: SandboxDiscord;
  let env: NodeJS.ProcessEnv;
  let secret: string;

  beforeAll(async () => {
    setup = await startOperatorSetup('tick-race');
    ({ eventor, discord, env, secretKey: secret } = setup);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it(`${PROCESSES} ticks started together, ${TRIALS} times, for the same new results and then for the same deleted and corrected post: one post each time`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const { guild, channel } = await serverWithResultsFeed(discord, env.DATABASE_PATH!, secret, `Race ${trial}`);
      env.EVENTOR_DEFAULT_GUILDS = guild.id;
      const event = recentClubResultsEvent(eventor, eventor.now().getTime());
      expect((await tick(env, 30_000)).code).toBe(0);
      expect(discord.messages(channel)).toHaveLength(0);

      event.hasResults = true;
      event.materialized = null;
      const runs = await Promise.all(Array.from({ length: PROCESSES }, () => tick(env, 60_000)));
      expect(
        runs.map((r) => r.code),
        runs.map((r) => r.stderr).join('\n'),
      ).toEqual(Array(PROCESSES).fill(0));
      const messages = discord.messages(channel);
      expect(messages, `trial ${trial}`).toHaveLength(1);
      expect(messages[0]!.embeds[0]!.title).toContain(event.name);

      await withDatabase(env.DATABASE_PATH!, secret, async (after) => {
        expect(await resultsLedgerRow(after, guild.id, event.id)).toMatchObject({
          state: 'posted',
          messageId: messages[0]!.id,
        });
        expect(after.db.prepare('SELECT COUNT(*) AS n FROM post_claims').get()).toEqual({ n: 0 });
      });

      // The race that only the claim decides: the post is deleted and the results corrected, so each
      // process would find the edit refused (Unknown Message) and post anew with a nonce of its own,
      // which Discord's nonce check cannot match. Discord holds each edit until all the processes
      // have sent theirs (or HOLD_MS passed, when the others stood back) and answers them together.
      const deleted = await fetch(`${discord.restUrl}/v10/channels/${channel}/messages/${messages[0]!.id}`, {
        method: 'DELETE',
        headers: { Authorization: `Bot ${discord.token}` },
      });
      expect(deleted.status).toBe(204);
      eventor.dataset.correctResult(event.id, clubFinisherId(eventor, event), { status: 'MissingPunch' });
      discord.faults.holdTogether({
        route: 'PATCH /channels/:channelId/messages/:messageId',
        count: PROCESSES,
        maxWaitMs: HOLD_MS,
      });
      const reposts = await Promise.all(Array.from({ length: PROCESSES }, () => tick(env, 60_000 + HOLD_MS)));
      discord.faults.clear();
      expect(
        reposts.map((r) => r.code),
        reposts.map((r) => r.stderr).join('\n'),
      ).toEqual(Array(PROCESSES).fill(0));
      const reposted = discord.messages(channel);
      expect(reposted, `trial ${trial}: one post anew`).toHaveLength(1);
      expect(reposted[0]!.id).not.toBe(messages[0]!.id);
      await withDatabase(env.DATABASE_PATH!, secret, async (again) => {
        expect(await resultsLedgerRow(again, guild.id, event.id)).toMatchObject({
          state: 'posted',
          messageId: reposted[0]!.id,
        });
        expect(again.db.prepare('SELECT COUNT(*) AS n FROM post_claims').get()).toEqual({ n: 0 });
      });
    }
  }, 600_000);
});
