import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FeedSettingsStore } from '../../src/feeds/settings.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';

describe('feed settings', () => {
  it('are off by default, keep their options, and record who paused them and when', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-feeds-'));
    try {
      const store = await openSqliteStore(path.join(dir, 'bot.sqlite'), 'feed-settings-test-secret-0123');
      const feeds = new FeedSettingsStore(store, () => new Date('2026-11-22T12:00:00Z'));
      expect(await feeds.get('g1', 'reminders')).toMatchObject({
        enabled: false,
        pausedReason: null,
        channelId: null,
        options: { leadDays: [7, 1], lateEntry: true, quietHours: null },
      });
      expect(await feeds.guildsWithFeeds()).toEqual([]);
      await store.servers.setChannel('g1', 'reminders', 'c9');
      await feeds.update('g1', 'reminders', {
        enabled: true,
        roleId: 'r1',
        options: { leadDays: [3], quietHours: { from: 22, to: 7 } },
      });
      expect(await feeds.get('g1', 'reminders')).toMatchObject({
        enabled: true,
        roleId: 'r1',
        channelId: 'c9',
        options: { leadDays: [3], lateEntry: true, quietHours: { from: 22, to: 7 } },
      });
      expect(await feeds.guildsWithFeeds()).toEqual(['g1']);
      await feeds.update('g1', 'reminders', { pausedReason: 'no-permission' });
      expect(await feeds.get('g1', 'reminders')).toMatchObject({
        enabled: true,
        pausedReason: 'no-permission',
        pausedAt: '2026-11-22T12:00:00.000Z',
      });
      await feeds.update('g1', 'reminders', { pausedReason: null });
      expect(await feeds.get('g1', 'reminders')).toMatchObject({ pausedReason: null, pausedAt: null });
      expect((await feeds.all('g1')).map((f) => f.feed)).toEqual([
        'results',
        'reminders',
        'startlists',
        'events',
        'activities',
        'calendar',
        'digest',
      ]);
      await expect(feeds.update('g1', 'reminders', { options: { leadDays: [-1] } })).rejects.toThrow();
      // The digest's day (ISO 1-7) and time (HH:MM) are checked too; nothing is stored when refused.
      expect((await feeds.get('g1', 'digest')).options).toMatchObject({ digestDay: 4, digestTime: '18:00' });
      await expect(feeds.update('g1', 'digest', { options: { digestTime: '24:00' } })).rejects.toThrow();
      await expect(feeds.update('g1', 'digest', { options: { digestDay: 0 } })).rejects.toThrow();
      expect((await feeds.get('g1', 'digest')).options).toMatchObject({ digestDay: 4, digestTime: '18:00' });
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
