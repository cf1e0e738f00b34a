/**
 * The feed settings of every kind, on every database the store has (support/stores.ts): off by
 * default, each kind's own options with their defaults, the quiet hours every kind has, and rows a
 * version before the kinds had options of their own wrote (every kind's fields in every row)
 * read the same and lose the foreign fields at their next change.
 */
import { beforeEach, expect, it } from 'vitest';
import { KIND_NAMES } from '../../src/feeds/registry.js';
import { KindSettings } from '../../src/feeds/settings.js';
import type { Store } from '../../src/store/interfaces.js';
import { describeEachDialect } from '../support/stores.js';

/** A row as the version before wrote it: one object of every kind's fields, whatever the kind. */
const OLD_ROW = JSON.stringify({
  leadDays: [3],
  lateEntry: false,
  quietHours: { from: 22, to: 7 },
  classificationIds: ['2'],
  threads: true,
  digestDay: 1,
  digestTime: '07:30',
});

describeEachDialect('feed settings', (stores) => {
  let store: Store;
  let feeds: KindSettings;

  beforeEach(async () => {
    store = await stores().fresh({ now: () => new Date('2026-11-22T12:00:00Z') });
    feeds = new KindSettings(store, () => new Date('2026-11-22T12:00:00Z'));
  });

  it('are off by default, keep their options, and record who paused them and when', async () => {
    expect(await feeds.get('g1', 'reminders')).toMatchObject({
      enabled: false,
      pausedReason: null,
      channelId: null,
      quietHours: null,
      options: { leadDays: [7, 1], lateEntry: true },
    });
    expect(await feeds.guildsWithFeeds()).toEqual([]);
    await store.servers.setChannel('g1', 'reminders', 'c9');
    await feeds.update('g1', 'reminders', {
      enabled: true,
      roleId: 'r1',
      quietHours: { from: 22, to: 7 },
      options: { leadDays: [3] },
    });
    expect(await feeds.get('g1', 'reminders')).toMatchObject({
      enabled: true,
      roleId: 'r1',
      channelId: 'c9',
      quietHours: { from: 22, to: 7 },
      options: { leadDays: [3], lateEntry: true },
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
    expect((await feeds.all('g1')).map((f) => f.feed)).toEqual(KIND_NAMES);
  });

  it("holds each kind's own options only, and refuses what its schema refuses, storing nothing", async () => {
    expect((await feeds.get('g1', 'results')).options).toEqual({ threads: false });
    expect((await feeds.get('g1', 'events')).options).toEqual({ classificationIds: [] });
    expect((await feeds.get('g1', 'startlists')).options).toEqual({});
    await expect(feeds.update('g1', 'reminders', { options: { leadDays: [-1] } })).rejects.toThrow();
    // The digest's day (ISO 1-7) and time (HH:MM) are checked too; nothing is stored when refused.
    expect((await feeds.get('g1', 'digest')).options).toEqual({ digestDay: 4, digestTime: '18:00' });
    await expect(feeds.update('g1', 'digest', { options: { digestTime: '24:00' } })).rejects.toThrow();
    await expect(feeds.update('g1', 'digest', { options: { digestDay: 0 } })).rejects.toThrow();
    expect((await feeds.get('g1', 'digest')).options).toEqual({ digestDay: 4, digestTime: '18:00' });
    expect(await store.feedSettings.get('g1', 'digest')).toBeNull();
    // A kind no registry has is a caller's mistake, never a server's input.
    expect(() => feeds.kind('no-such-kind')).toThrow(/no feed kind/);
  });

  it('reads a row of the version before as it was meant, and writes back only what the kind has', async () => {
    for (const kind of KIND_NAMES)
      await store.feedSettings.update('g1', kind, () => ({
        enabled: true,
        pausedReason: null,
        pausedAt: null,
        roleId: null,
        options: OLD_ROW,
      }));
    expect(await feeds.get('g1', 'reminders')).toMatchObject({
      quietHours: { from: 22, to: 7 },
      options: { leadDays: [3], lateEntry: false },
    });
    expect((await feeds.get('g1', 'reminders')).options).not.toHaveProperty('threads');
    expect((await feeds.get('g1', 'results')).options).toEqual({ threads: true });
    expect((await feeds.get('g1', 'calendar')).options).toEqual({ classificationIds: ['2'] });
    expect((await feeds.get('g1', 'digest')).options).toEqual({ digestDay: 1, digestTime: '07:30' });
    // The next change keeps what the kind has and drops what it never had.
    await feeds.update('g1', 'results', { roleId: 'r2' });
    expect(JSON.parse((await store.feedSettings.get('g1', 'results'))!.options)).toEqual({
      quietHours: { from: 22, to: 7 },
      threads: true,
    });
    expect(await feeds.get('g1', 'results')).toMatchObject({ roleId: 'r2', options: { threads: true } });
  });
});
