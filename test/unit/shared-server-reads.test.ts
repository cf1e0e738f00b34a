import { describe, expect, it } from 'vitest';
import type { GuildSettings, ServerStore } from '../../src/store/interfaces.js';
import { SharedServerReads } from '../../src/store/postgres/shared-reads.js';

/**
 * The PostgreSQL store's shared reads of server settings (docs/decisions/store-dialects.md#shared-reads):
 * callers asking while a read is on its way share it, and nobody who asks after a write gets what
 * was read before it. The database here is a stand-in whose reads come back when the test says.
 */
class SlowServers implements ServerStore {
  reads = 0;
  locale = 'en';
  readonly #waiting: Array<() => void> = [];

  guildSettings(guildId: string): Promise<GuildSettings | null> {
    this.reads++;
    const locale = this.locale;
    return new Promise((resolve) => {
      this.#waiting.push(() => resolve(settings(guildId, locale)));
    });
  }
  /** Lets every read on its way come back. */
  answer(): void {
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
  async updateGuildSettings(guildId: string, update: { locale?: string | null }): Promise<GuildSettings> {
    this.locale = update.locale ?? this.locale;
    return settings(guildId, this.locale);
  }
  async setApiKey(): Promise<void> {}
  async connectEventor(guildId: string): Promise<GuildSettings> {
    return settings(guildId, this.locale);
  }
  async apiKey(): Promise<string | null> {
    return null;
  }
  async setChannel(): Promise<void> {}
}

function settings(guildId: string, locale: string): GuildSettings {
  return {
    guildId,
    eventorInstance: 'sweden',
    eventorBaseUrl: null,
    hasApiKey: true,
    organisationId: '321',
    organisationName: 'OK Test',
    locale,
    timeZone: 'Europe/Stockholm',
    channels: { results: '1' },
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

describe('shared reads of server settings', () => {
  it('callers asking while a read is on its way share it, each with a copy of its own', async () => {
    const inner = new SlowServers();
    const servers = new SharedServerReads(inner);
    const asked = Array.from({ length: 50 }, () => servers.guildSettings('g1'));
    const other = servers.guildSettings('g2');
    inner.answer();
    const answers = await Promise.all(asked);
    expect(inner.reads).toBe(2);
    expect(answers.every((s) => s?.locale === 'en' && s.channels.results === '1')).toBe(true);
    answers[0]!.channels.results = 'changed';
    expect(answers[1]!.channels.results).toBe('1');
    expect((await other)?.guildId).toBe('g2');
  });

  it('keeps nothing once a read has come back', async () => {
    const inner = new SlowServers();
    const servers = new SharedServerReads(inner);
    const first = servers.guildSettings('g1');
    inner.answer();
    await first;
    const second = servers.guildSettings('g1');
    inner.answer();
    await second;
    expect(inner.reads).toBe(2);
  });

  it('whoever asks after a write reads afresh, even while an older read is on its way', async () => {
    const inner = new SlowServers();
    const servers = new SharedServerReads(inner);
    const before = servers.guildSettings('g1');
    await servers.updateGuildSettings('g1', { locale: 'sv' });
    const after = servers.guildSettings('g1');
    inner.answer();
    expect((await before)?.locale).toBe('en');
    expect((await after)?.locale).toBe('sv');
    expect(inner.reads).toBe(2);
  });

  it('a write elsewhere in this process (a transaction) is announced with written()', async () => {
    const inner = new SlowServers();
    const servers = new SharedServerReads(inner);
    const before = servers.guildSettings('g1');
    inner.locale = 'nb';
    servers.written();
    const after = servers.guildSettings('g1');
    inner.answer();
    expect([(await before)?.locale, (await after)?.locale]).toEqual(['en', 'nb']);
  });
});
