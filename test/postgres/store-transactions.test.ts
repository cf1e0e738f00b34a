import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import type { SharedServerReads } from '../../src/store/postgres/shared-reads.js';
import { NEEDS_POSTGRES } from '../support/postgres.js';
import { postgresDialect } from '../support/stores.js';

/**
 * What `Store.transaction` does on PostgreSQL beyond the contract: a nested call that fails can be
 * caught and the outer one goes on, a connection lost in the middle fails the transaction without
 * ending the process, and failures give their connections back to the pool.
 */
describe(`PostgreSQL transactions ${NEEDS_POSTGRES}`, () => {
  const stores = postgresDialect.use();

  it('a nested transaction that fails is undone alone when the outer one catches it', async () => {
    const store = await stores().fresh();
    await store.transaction(async (parts) => {
      await parts.departures.recordGuildDeparture('kept');
      await expect(
        store.transaction(async (inner) => {
          await inner.departures.recordGuildDeparture('undone');
          throw new Error('inner fails');
        }),
      ).rejects.toThrow('inner fails');
      await parts.departures.recordGuildDeparture('also-kept');
    });
    expect((await store.departures.guildDepartures()).map((d) => d.guildId).sort()).toEqual(['also-kept', 'kept']);
  });

  it('a connection lost in the middle fails the transaction, leaves nothing, and the store goes on', async () => {
    const factory = stores();
    const store = await factory.fresh();
    const admin = new pg.Client({ connectionString: factory.location(store) });
    await admin.connect();
    try {
      await expect(
        store.transaction(async (parts) => {
          await parts.departures.recordGuildDeparture('lost');
          // The server ends this transaction's connection while it waits between two statements.
          const { rowCount } = await admin.query(
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
             WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`,
          );
          expect(rowCount).toBe(1);
          // Bounded: the connection's end reaches this process within a moment.
          for (let i = 0; i < 50; i++) await new Promise((resolve) => setTimeout(resolve, 10));
          await parts.departures.recordGuildDeparture('after');
        }),
      ).rejects.toThrow();
    } finally {
      await admin.end();
    }
    expect(await store.departures.guildDepartures()).toEqual([]);
    expect(await store.departures.recordGuildDeparture('later')).toBe(true);
  });

  it('refuses parts kept past the end of their transaction: the connection may be in another one by then', async () => {
    const store = await stores().fresh();
    const kept = await store.transaction(async (parts) => parts);
    await expect(kept.departures.recordGuildDeparture('late')).rejects.toThrow(
      'a store part was used after its transaction ended',
    );
    await expect(kept.links.linkPerson('g1', 'u1', 'p1', 'admin')).rejects.toThrow('after its transaction ended');
    expect(await store.departures.guildDepartures()).toEqual([]);
  });

  it('gives every connection back after failures: more failed transactions than the pool holds', async () => {
    const store = await stores().fresh();
    for (let i = 0; i < 25; i++) {
      await expect(
        store.transaction(async (parts) => {
          await parts.links.linkPerson('g1', 'u1', `p${i}`, 'admin');
          throw new Error(`failure ${i}`);
        }),
      ).rejects.toThrow(`failure ${i}`);
      // And failing atomic steps (a constraint broken inside one).
      await expect(
        store.feedSettings.update('g1', 'results', () => ({
          enabled: true,
          pausedReason: null,
          pausedAt: null,
          roleId: null,
          options: null as unknown as string,
        })),
      ).rejects.toThrow(/null value/);
    }
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    expect(await store.feedSettings.get('g1', 'results')).toBeNull();
  });

  it('a read right after a transaction sees what it wrote, though a read of the same server was on its way', async () => {
    const store = await stores().fresh();
    await store.servers.updateGuildSettings('g1', { locale: 'en' });
    // Reads of one server share one query while it is on its way (docs/decisions/store-dialects.md#shared-reads).
    const onItsWay = Array.from({ length: 20 }, () => store.servers.guildSettings('g1'));
    await store.transaction(async (parts) => {
      await parts.servers.setChannel('g1', 'results', '42');
      await parts.servers.updateGuildSettings('g1', { locale: 'sv' });
    });
    const after = await store.servers.guildSettings('g1');
    expect(after?.channels.results).toBe('42');
    expect(after?.locale).toBe('sv');
    expect((await Promise.all(onItsWay)).every((s) => s?.guildId === 'g1')).toBe(true);
  });

  it('forgetting a server drops the reads of its settings on their way: nobody asking after gets them', async () => {
    const store = await stores().fresh();
    await store.servers.setApiKey('g1', 'a-key-of-the-server', { id: '1', name: 'OK' });
    const dropped = vi.spyOn(store.servers as SharedServerReads, 'written');
    const onItsWay = Array.from({ length: 20 }, () => store.servers.apiKey('g1'));
    await store.people.forgetGuild('g1');
    expect(dropped).toHaveBeenCalled();
    expect(await store.servers.apiKey('g1')).toBeNull();
    expect(await store.servers.guildSettings('g1')).toBeNull();
    await Promise.all(onItsWay);
  });
});
