import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main, type Io } from '../src/cli/main.js';
import { FeedSettingsStore } from '../src/feeds/settings.js';
import type { SandboxDiscord } from '../src/sandbox/discord/index.js';
import type { SandboxEventor } from '../src/sandbox/eventor/server.js';
import { Store } from '../src/store/store.js';
import { recentClubResultsEvent } from './support/sandbox-events.js';
import { startOperatorSetup, type OperatorSetup } from './support/operator-env.js';


function capture(env: NodeJS.ProcessEnv): Io & { stderr: () => string } {
  let err = '';
  return { out: () => undefined, err: (t) => { err += t; }, env, stderr: () => err };
}

describe('eventor-bot tick: every turned-on automatic post once, now', () => {
  let setup: OperatorSetup;
  let eventor: SandboxEventor;
  let discord: SandboxDiscord;
  let env: NodeJS.ProcessEnv;
  let SECRET: string;

  beforeAll(async () => {
    setup = await startOperatorSetup('tick');
    ({ eventor, discord, env, secretKey: SECRET } = setup);
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('seeds on the first tick, posts new results on the next, and never twice', async () => {
    const guild = discord.createGuild({ name: 'Tick club' });
    const channel = discord.createTextChannel(guild.id, { name: 'resultat' }).id;
    const store = Store.open(env.DATABASE_PATH!, SECRET);
    try {
      store.setChannel(guild.id, 'results', channel);
      new FeedSettingsStore(store).update(guild.id, 'results', { enabled: true });
    } finally {
      store.close();
    }
    const event = recentClubResultsEvent(eventor, Date.now());

    const first = capture(env);
    expect(await main(['tick'], first)).toBe(0);
    expect(discord.messages(channel)).toHaveLength(0);

    event.hasResults = true;
    event.materialized = null;
    const second = capture(env);
    expect(await main(['tick'], second)).toBe(0);
    const messages = discord.messages(channel);
    expect(messages).toHaveLength(1);
    expect(messages[0]!.embeds[0]!.title).toContain(event.name);

    expect(await main(['tick'], capture(env))).toBe(0);
    expect(discord.messages(channel)).toHaveLength(1);
    expect(second.stderr()).toContain('"msg":"bot stopped"');
    expect(second.stderr()).not.toContain(eventor.apiKey);
    expect(second.stderr()).not.toContain(discord.token);
  });

  it('refuses arguments it does not know', async () => {
    const io = capture(env);
    expect(await main(['tick', '--now'], io)).toBe(2);
  });
});
