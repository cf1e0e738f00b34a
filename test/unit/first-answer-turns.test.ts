/**
 * The order of work in a burst (src/bot/first-answer.ts): every interaction that arrives in one
 * turn of the event loop with others is deferred (from the second on at once), and the handlers
 * then render their answers one per later turn, so that no member's acknowledgement waits for
 * another member's answer, and an interaction that arrives while answers are being rendered is
 * acknowledged before the next one is rendered.
 * The bench measures what this buys (`ack-warm-p99`); this test pins the order itself, with
 * interactions that record what is done to them.
 */
import { describe, expect, it } from 'vitest';
import type { ChatInputCommandInteraction } from 'discord.js';
import { FirstAnswers } from '../../src/bot/first-answer.js';
import { createLogger } from '../../src/log/logger.js';

const log = createLogger({ level: 'error', write: () => undefined });
/** One bot's first answers (each bot owns one). */
const answers = new FirstAnswers();

/**
 * What the router's handler sees of an interaction, recording each call in `events`. Its deferral
 * is answered at once, or when `deferralAnswered` settles.
 */
function recordingInteraction(
  name: string,
  events: string[],
  deferralAnswered?: Promise<void>,
  guildId = 'club',
): ChatInputCommandInteraction {
  const record = (what: string) => async () => {
    events.push(`${what} ${name}`);
    return {};
  };
  return {
    guildId,
    user: { id: `user-${name}` },
    deferred: false,
    replied: false,
    ephemeral: null,
    deferReply: async () => {
      events.push(`defer ${name}`);
      await deferralAnswered;
      events.push(`deferred ${name}`);
      return {};
    },
    reply: record('reply'),
    editReply: record('edit'),
    followUp: record('followUp'),
    deleteReply: record('delete'),
    fetchReply: record('fetch'),
  } as unknown as ChatInputCommandInteraction;
}

/** One handler as the router runs it: its first answer, its own turn, its render (synchronous work), its answer. */
async function handle(
  name: string,
  events: string[],
  deferralAnswered?: Promise<void>,
  guildId?: string,
  bot: FirstAnswers = answers,
): Promise<void> {
  const interaction = recordingInteraction(name, events, deferralAnswered, guildId);
  const first = bot.begin(interaction, { reply: 'public' }, log);
  await first.ready();
  events.push(`render ${name}`);
  await first.answer('answer');
  await first.settle();
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('a burst of interactions', () => {
  it('defers every one before any of them renders, then renders them one per turn in the order they came', async () => {
    const events: string[] = [];
    const burst = ['a', 'b', 'c', 'd'].map((name) => handle(name, events));
    // Something else that happens in the next turn (a socket read: another interaction arriving).
    const other = nextTurn().then(() => events.push('arrival'));
    await Promise.all([...burst, other]);

    // From the second on, deferred on arrival; the first once the turn shows it was not alone.
    expect(events.filter((e) => e.startsWith('defer ')).slice(0, 4)).toEqual([
      'defer b',
      'defer c',
      'defer d',
      'defer a',
    ]);
    expect(events.indexOf('defer a')).toBeLessThan(events.indexOf('render a'));
    expect(events.filter((e) => e.startsWith('reply '))).toEqual([]);
    for (const name of ['a', 'b', 'c', 'd'])
      expect(events.indexOf(`edit ${name}`)).toBeGreaterThan(events.indexOf(`render ${name}`));
    expect(events.filter((e) => e.startsWith('render '))).toEqual(['render a', 'render b', 'render c', 'render d']);
    // What arrived in the next turn did not wait for the answers to be rendered.
    expect(events.indexOf('arrival')).toBeLessThan(events.indexOf('render a'));
  });

  it('lets a handler that is alone in its turn go on once the turn is over, and answer in its first response', async () => {
    const events: string[] = [];
    await nextTurn();
    const interaction = recordingInteraction('solo', events);
    const first = answers.begin(interaction, { reply: 'ephemeral' }, log);
    let ready = false;
    void first.ready().then(() => (ready = true));
    await Promise.resolve();
    expect(ready).toBe(false);
    await nextTurn();
    expect(ready).toBe(true);
    await first.answer('answer');
    await first.settle();
    expect(events).toEqual(['reply solo']);
  });

  it('defers a lone handler that waits on I/O, and answers it by an edit', async () => {
    const events: string[] = [];
    await nextTurn();
    const interaction = recordingInteraction('slow', events);
    const first = answers.begin(interaction, { reply: 'public' }, log);
    await first.ready();
    // The handler waits on a socket (Eventor): the loop turns before it answers.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await first.answer('answer');
    await first.settle();
    expect(events).toEqual(['defer slow', 'deferred slow', 'edit slow']);
  });

  it('renders no answer of a burst while its deferrals are on their way to Discord', async () => {
    const events: string[] = [];
    let answerDeferrals!: () => void;
    const answered = new Promise<void>((resolve) => (answerDeferrals = resolve));
    await nextTurn();
    const burst = ['a', 'b', 'c'].map((name) => handle(name, events, answered));
    for (let turn = 0; turn < 5; turn++) await nextTurn();
    expect(events.filter((e) => e.startsWith('defer '))).toHaveLength(3);
    expect(events.filter((e) => e.startsWith('render '))).toEqual([]);
    answerDeferrals();
    await Promise.all(burst);
    expect(events.filter((e) => e.startsWith('render '))).toEqual(['render a', 'render b', 'render c']);
    expect(events.indexOf('render a')).toBeGreaterThan(events.lastIndexOf('deferred c'));
  });

  it('holds the answers a little while at most when a deferral hangs', async () => {
    const events: string[] = [];
    await nextTurn();
    const hanging = new Promise<void>(() => undefined);
    // The first one's deferral never gets an answer; the others' come at once.
    void handle('stuck', events, hanging);
    const others = ['b', 'c'].map((name) => handle(name, events));
    const started = Date.now();
    await Promise.race([
      Promise.all(others),
      new Promise((_, reject) => setTimeout(() => reject(new Error('still held after 5 s')), 5_000)),
    ]);
    expect(events).toContain('render b');
    expect(events).toContain('render c');
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
  });

  it("renders another server's answer after one of a flooding server's, not after all of them", async () => {
    const events: string[] = [];
    await nextTurn();
    const flood = Array.from({ length: 10 }, (_, i) => handle(`s${i}`, events, undefined, 'strangers'));
    const club = handle('club', events, undefined, 'club');
    await Promise.all([...flood, club]);
    const renders = events.filter((e) => e.startsWith('render '));
    expect(renders).toHaveLength(11);
    expect(renders.slice(0, 2)).toEqual(['render s0', 'render club']);
    // The flooding server's own answers keep their order.
    expect(renders.filter((e) => e !== 'render club')).toEqual(Array.from({ length: 10 }, (_, i) => `render s${i}`));
  });

  it("leaves another bot's lone interaction alone: it answers in its first response, while this bot's burst waits on its deferrals", async () => {
    const events: string[] = [];
    let answerDeferrals!: () => void;
    const answered = new Promise<void>((resolve) => (answerDeferrals = resolve));
    await nextTurn();
    // Two bots in one process, each with its own first answers; the same turn of the event loop.
    const other = new FirstAnswers();
    const burst = ['a', 'b', 'c'].map((name) => handle(name, events, answered, 'club'));
    const lone = handle('lone', events, undefined, 'club', other);
    await lone;
    expect(events.filter((e) => e.endsWith(' lone'))).toEqual(['render lone', 'reply lone']);
    // This bot's answers are still held by their deferrals, and the other bot did not wait for them.
    expect(events.filter((e) => e.startsWith('render ') && e !== 'render lone')).toEqual([]);
    answerDeferrals();
    await Promise.all(burst);
    expect(events.filter((e) => e.startsWith('render ') && e !== 'render lone')).toEqual([
      'render a',
      'render b',
      'render c',
    ]);
  });
});

describe('first answers not yet sent', () => {
  it('hold background work until every first answer begun has gone out', async () => {
    const bot = new FirstAnswers();
    expect(bot.unsent()).toBeNull();
    const events: string[] = [];
    let answered!: () => void;
    const deferralAnswered = new Promise<void>((resolve) => (answered = resolve));
    // Two at once: both deferred, the deferrals waiting for Discord.
    const handlers = [
      handle('a', events, deferralAnswered, 'club', bot),
      handle('b', events, deferralAnswered, 'club', bot),
    ];
    const held = bot.unsent();
    expect(held).not.toBeNull();
    let released = false;
    void held!.then(() => (released = true));
    await nextTurn();
    await nextTurn();
    expect(released).toBe(false);
    answered();
    await Promise.all(handlers);
    await held;
    expect(released).toBe(true);
    expect(bot.unsent()).toBeNull();
  });
});
