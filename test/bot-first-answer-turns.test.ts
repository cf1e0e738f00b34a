/**
 * The order of work in a burst (src/bot/first-answer.ts): every interaction after the first in one
 * turn of the event loop is deferred at once, and the handlers then render their answers one per
 * later turn, so that no member's acknowledgement waits for another member's answer, and an
 * interaction that arrives while answers are being rendered is acknowledged before the next one.
 * The bench measures what this buys (`ack-warm-p99`); this test pins the order itself, with
 * interactions that record what is done to them.
 */
import { describe, expect, it } from 'vitest';
import type { ChatInputCommandInteraction } from 'discord.js';
import { FirstAnswer } from '../src/bot/first-answer.js';
import { createLogger } from '../src/log/logger.js';

const log = createLogger({ level: 'error', write: () => undefined });

/** What the router's handler sees of an interaction, recording each call in `events`. */
function recordingInteraction(name: string, events: string[]): ChatInputCommandInteraction {
  const record = (what: string) => async () => {
    events.push(`${what} ${name}`);
    return {};
  };
  return {
    deferred: false,
    replied: false,
    ephemeral: null,
    deferReply: record('defer'),
    reply: record('reply'),
    editReply: record('edit'),
    followUp: record('followUp'),
    deleteReply: record('delete'),
    fetchReply: record('fetch'),
  } as unknown as ChatInputCommandInteraction;
}

/** One handler as the router runs it: its first answer, its own turn, its render (synchronous work), its answer. */
async function handle(name: string, events: string[]): Promise<void> {
  const interaction = recordingInteraction(name, events);
  const first = new FirstAnswer(interaction, { reply: 'public' }, log);
  await first.ready();
  events.push(`render ${name}`);
  await interaction.editReply('answer');
  await first.settle();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a burst of interactions', () => {
  it('defers every one after the first before any of them renders, and renders one per turn', async () => {
    const events: string[] = [];
    const burst = ['a', 'b', 'c', 'd'].map((name) => handle(name, events));
    // Something else that happens in the next turn (a socket read: another interaction arriving).
    const other = nextTurn().then(() => events.push('arrival'));
    await Promise.all([...burst, other]);

    // The first one answers directly (nothing to wait for); the others are deferred at once.
    expect(events.slice(0, 3)).toEqual(['defer b', 'defer c', 'defer d']);
    expect(events).toContain('reply a');
    expect(events).not.toContain('defer a');
    for (const name of ['b', 'c', 'd'])
      expect(events.indexOf(`edit ${name}`)).toBeGreaterThan(events.indexOf(`render ${name}`));
    // The deferred ones render in turn order, and what arrived in the next turn did not wait for all of them.
    const renders = events.filter((e) => e.startsWith('render ') && e !== 'render a');
    expect(renders).toEqual(['render b', 'render c', 'render d']);
    expect(events.indexOf('arrival')).toBeLessThan(events.indexOf('render c'));
  });

  it('lets a handler that is alone in its turn go on at once', async () => {
    const events: string[] = [];
    await nextTurn();
    const interaction = recordingInteraction('solo', events);
    const first = new FirstAnswer(interaction, { reply: 'ephemeral' }, log);
    let ready = false;
    void first.ready().then(() => (ready = true));
    await Promise.resolve();
    expect(ready).toBe(true);
    await interaction.editReply('answer');
    await first.settle();
    expect(events).toEqual(['reply solo']);
  });
});
