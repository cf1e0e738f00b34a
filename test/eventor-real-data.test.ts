/**
 * Issue 10 §1: what real Eventors and real timing programs do that the happy path does not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { renderMessageText } from '../src/sandbox/discord/index.js';
import { startLoopbackWorld, type LoopbackWorld } from '../src/sandbox/world.js';

const WAIT = { timeoutMs: 15_000 };

describe('/status after Eventor refused the key', () => {
  let world: LoopbackWorld | undefined;
  afterEach(async () => {
    await world?.close();
    world = undefined;
  });

  it('says the key is refused right after a command got the refusal, not a cached "works"', async () => {
    world = await startLoopbackWorld({ seed: 3 });
    const w = world;
    const run = (name: string) => w.discord.runCommand({ guildId: w.guild.id, channelId: w.channel.id, user: w.member, locale: 'en-GB', name }).reply(WAIT);
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
