/**
 * The bot may be in strangers' servers. When a server fires many commands at once, every member
 * is acknowledged at once and the answers are rendered one per turn of the event loop
 * (src/bot/first-answer.ts); each server waits in a lane of its own and the lanes take turns, so a
 * flooding server cannot push a club's answers behind all of its own. Real bot, sandbox Discord
 * over a real WebSocket, sandbox Eventor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  InteractionHandle,
  SandboxChannel,
  SandboxGuild,
  SandboxUser,
} from '../../harness/sandbox/discord/index.js';
import { type LoopbackWorld } from '../../harness/loopback/world.js';
import { startTestWorld } from '../support/test-world.js';

const WAIT = { timeoutMs: 20_000 };
const FLOOD = 30;
/**
 * Bursts at most: the test needs most of the flood still waiting when the club's command reaches
 * the bot. On a busy machine the 31 commands may reach it over several reads of its socket, the
 * flood's first answers already out before the club's arrives; such a burst proves nothing and
 * the next is tried.
 */
const BURSTS = 3;
/** Flood answers still to come after the club's command was acknowledged, for a burst to count. */
const STILL_WAITING = 10;

/** When the answer with content reached Discord, on the sandbox's monotonic clock. */
function answeredAt(handle: InteractionHandle): number {
  const answer = handle.record.history.find(
    (e) => (e.kind === 'callback' && e.type === 4) || e.kind === 'editOriginal',
  );
  if (!answer) throw new Error(`interaction ${handle.id} has no answer`);
  return handle.record.dispatchedAtMonotonicMs + answer.elapsedMs;
}

/** When the bot acknowledged the interaction (its deferral): it had read the command by then. */
function acknowledgedAt(handle: InteractionHandle): number {
  const ack = handle.record.history.find((e) => e.kind === 'callback');
  if (!ack) throw new Error(`interaction ${handle.id} was not acknowledged`);
  return handle.record.dispatchedAtMonotonicMs + ack.elapsedMs;
}

describe("a server's burst of commands does not hold back another server's answers", () => {
  let world: LoopbackWorld;
  let strangers: SandboxGuild;
  let lobby: SandboxChannel;
  let flooders: SandboxUser[];

  beforeAll(async () => {
    world = await startTestWorld();
    ({ guild: strangers, lobby } = await world.addServer('A stranger’s server'));
    flooders = Array.from({ length: FLOOD }, (_, i) =>
      world.discord.createMember(strangers.id, { username: `flooder${i}`, locale: 'en-GB' }),
    );
  });
  afterAll(async () => {
    await world?.close();
  });

  const events = (guildId: string, channelId: string, user: SandboxUser) =>
    world.discord.runCommand({ guildId, channelId, user, locale: 'en-GB', name: 'events', options: { days: 30 } });

  it("answers the club's member among the first, not after all of the flooding server's answers", async () => {
    // The club's list is cached, so its answer waits for nothing but its turn.
    await events(world.guild.id, world.channel.id, world.member).reply(WAIT);

    let counted = 0;
    for (let burst = 0; burst < BURSTS && counted === 0; burst++) {
      const flood = flooders.map((user) => events(strangers.id, lobby.id, user));
      const club = events(world.guild.id, world.channel.id, world.member);
      await Promise.all([...flood, club].map((handle) => handle.reply(WAIT)));

      // Every member was acknowledged, and got an answer (the strangers' server is not connected).
      expect(club.deferred).toBe(true);
      expect(flood.every((handle) => handle.deferred)).toBe(true);
      // The flooding server's own answers keep the order its members asked in.
      const order = [...flood, club].sort((a, b) => answeredAt(a) - answeredAt(b));
      const theirs = order.filter((handle) => handle !== club);
      expect(theirs.map((handle) => flood.indexOf(handle))).toEqual(flood.map((_, i) => i));

      // Among the answers still to come once the bot had read the club's command: the club's is
      // second when both lanes hold work; in one queue for all servers it would come after all of theirs.
      const read = acknowledgedAt(club);
      const after = order.filter((handle) => answeredAt(handle) > read);
      const rank = after.indexOf(club) + 1;
      expect(rank).toBeGreaterThan(0);
      expect(rank).toBeLessThanOrEqual(5);
      if (after.length - 1 >= STILL_WAITING) counted++;
    }
    // At least one burst had the flood still waiting behind the club's command.
    expect(counted).toBe(1);
  });
});
