import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/store.js';

const SECRET = 'a-test-secret-key-that-is-long-enough';
const ORGANISATION = { id: '321', name: 'Sandbox OK' };

/** Resolves when `release` is called: lets a test hold a transaction open across an await. */
function gate(): { wait: Promise<void>; release: () => void } {
  let release!: () => void;
  const wait = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { wait, release };
}

describe('Store.transaction on SQLite', () => {
  let dir: string;
  let store: SqliteStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-transaction-'));
    store = await openSqliteStore(path.join(dir, 'bot.sqlite'), SECRET);
  });
  afterEach(async () => {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("a throw rolls back every part's writes, and the error reaches the caller", async () => {
    const failure = new Error('changed my mind');
    await expect(
      store.transaction(async (parts) => {
        await parts.servers.setApiKey('g1', 'key-that-must-not-stay', ORGANISATION);
        await parts.links.linkPerson('g1', 'u1', 'p1', 'credentials');
        await parts.audit.audit({ guildId: 'g1', actorId: 'u1', action: 'link' });
        await parts.feedSettings.update('g1', 'results', () => ({
          enabled: true,
          pausedReason: null,
          pausedAt: null,
          roleId: null,
          options: '{}',
        }));
        await parts.ledger.seed('g1', 'results', 'c1', [{ itemKey: 'a', contentHash: 'h' }]);
        await parts.subscriptions.set('g1', 'u1', { starts: true, results: false, locale: 'sv-SE', resume: true }, []);
        await parts.departures.recordGuildDeparture('g1');
        throw failure;
      }),
    ).rejects.toBe(failure);

    expect(await store.servers.guildSettings('g1')).toBeNull();
    expect(await store.servers.apiKey('g1')).toBeNull();
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    expect(await store.audit.auditLog('g1')).toEqual([]);
    expect(await store.feedSettings.get('g1', 'results')).toBeNull();
    expect(await store.ledger.feedStartedAt('g1', 'results')).toBeNull();
    expect(await store.subscriptions.get('g1', 'u1')).toBeNull();
    expect(await store.departures.guildDepartures()).toEqual([]);
    expect(await store.people.knownGuildIds()).toEqual([]);
    // The connection is usable again, outside any transaction.
    expect(store.db.inTransaction).toBe(false);
    await store.links.linkPerson('g1', 'u1', 'p1', 'credentials');
    expect((await store.links.linkedPersons('g1', 'u1')).map((l) => l.personId)).toEqual(['p1']);
  });

  it('commits every part together when the work succeeds', async () => {
    const result = await store.transaction(async (parts) => {
      await parts.links.linkPerson('g1', 'u1', 'p1', 'admin');
      await parts.audit.audit({ guildId: 'g1', actorId: 'a1', subjectId: 'u1', personId: 'p1', action: 'link' });
      return 'done';
    });
    expect(result).toBe('done');
    expect(await store.links.linkedPersons('g1', 'u1')).toHaveLength(1);
    expect((await store.audit.auditLog('g1')).map((e) => e.action)).toEqual(['link']);
  });

  it('a call from outside made while it is open waits, and lands after it (not inside it, not rolled back with it)', async () => {
    const held = gate();
    const order: string[] = [];
    let outsideDone = false;
    const transaction = store.transaction(async (parts) => {
      await parts.links.linkPerson('g1', 'u1', 'p1', 'credentials');
      order.push('transaction wrote');
      await held.wait;
      // Nothing from outside ran meanwhile: the outside link is not visible inside.
      expect(await parts.links.linkedPersons('g1', 'u2')).toEqual([]);
      order.push('transaction ends');
      throw new Error('rolled back');
    });
    // Let the transaction begin before the outside call is made.
    await new Promise((resolve) => setImmediate(resolve));
    expect(store.db.inTransaction).toBe(true);
    const outside = store.links.linkPerson('g1', 'u2', 'p2', 'credentials').then(() => {
      outsideDone = true;
      order.push('outside landed');
    });
    const outsideRead = store.links.linkedPersons('g1', 'u1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(outsideDone).toBe(false);
    held.release();
    await expect(transaction).rejects.toThrow('rolled back');
    await outside;
    expect(order).toEqual(['transaction wrote', 'transaction ends', 'outside landed']);
    // The outside write survived the rollback; the outside read saw the state after it, not the rolled-back link.
    expect((await store.links.linkedPersons('g1', 'u2')).map((l) => l.personId)).toEqual(['p2']);
    expect(await outsideRead).toEqual([]);
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
  });

  it('a second transaction waits for the first and runs after it', async () => {
    const held = gate();
    const order: string[] = [];
    const first = store.transaction(async (parts) => {
      order.push('first begins');
      await held.wait;
      await parts.links.linkPerson('g1', 'u1', 'p1', 'credentials');
      order.push('first ends');
    });
    const second = store.transaction(async (parts) => {
      order.push('second begins');
      expect(await parts.links.linkedPersons('g1', 'u1')).toHaveLength(1);
      order.push('second ends');
    });
    await new Promise((resolve) => setImmediate(resolve));
    held.release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first begins', 'first ends', 'second begins', 'second ends']);
  });

  it('a nested call joins the outer transaction: its writes commit or roll back with the outer ones', async () => {
    await expect(
      store.transaction(async (parts) => {
        await parts.links.linkPerson('g1', 'u1', 'p1', 'credentials');
        // The store itself, called from inside the work: joins instead of waiting for itself.
        const inner = await store.transaction(async (nested) => {
          await nested.links.linkPerson('g1', 'u2', 'p2', 'credentials');
          return store.links.linkedPersons('g1', 'u1');
        });
        expect(inner.map((l) => l.personId)).toEqual(['p1']);
        throw new Error('outer fails');
      }),
    ).rejects.toThrow('outer fails');
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    expect(await store.links.linkedPersons('g1', 'u2')).toEqual([]);

    await store.transaction(async () => {
      await store.transaction((nested) => nested.links.linkPerson('g1', 'u3', 'p3', 'credentials'));
    });
    expect(await store.links.linkedPersons('g1', 'u3')).toHaveLength(1);
  });

  it('forgetting a user inside a transaction empties the WAL once the transaction has committed', async () => {
    await store.links.linkPerson('g1', 'u1', 'p1', 'credentials');
    await store.transaction(async (parts) => {
      await parts.people.forgetUser('u1', 'personal:u1:');
    });
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    const [checkpoint] = store.db.pragma('wal_checkpoint(PASSIVE)') as Array<{ log: number }>;
    expect(checkpoint!.log).toBe(0);
  });
});

describe('SQLite migration 10: throttle_events with its own id', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-migration-10-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps every row under its old rowid, and the index, so an attempt taken before can be given back', async () => {
    const file = path.join(dir, 'bot.sqlite');
    openDatabase(file, MIGRATIONS.slice(0, 9)).close();
    const old = new Database(file);
    const insert = old.prepare('INSERT INTO throttle_events (rowid, scope, subject, at) VALUES (?, ?, ?, ?)');
    insert.run(7, 'login-link', 'hash-a', '2026-10-01T10:00:00.000Z');
    insert.run(12, 'link-failure', 'hash-b', '2026-10-01T10:01:00.000Z');
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    expect(
      (db.prepare('PRAGMA table_info(throttle_events)').all() as Array<{ name: string; pk: number }>).map((c) => [
        c.name,
        c.pk,
      ]),
    ).toEqual([
      ['id', 1],
      ['scope', 0],
      ['subject', 0],
      ['at', 0],
    ]);
    expect(db.prepare('SELECT id, scope, subject, at FROM throttle_events ORDER BY id').all()).toEqual([
      { id: 7, scope: 'login-link', subject: 'hash-a', at: '2026-10-01T10:00:00.000Z' },
      { id: 12, scope: 'link-failure', subject: 'hash-b', at: '2026-10-01T10:01:00.000Z' },
    ]);
    expect(
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'throttle_events'").all(),
    ).toEqual([{ name: 'throttle_events_subject' }]);
    db.close();
  });

  it('a new attempt gets the next id, and giving it back removes that row only', async () => {
    const store = await openSqliteStore(path.join(dir, 'bot.sqlite'), SECRET);
    try {
      const first = await store.throttles.takeThrottle('login-link', 'u1', 3, 60_000);
      const second = await store.throttles.takeThrottle('login-link', 'u1', 3, 60_000);
      expect(second.attempt).toBe(first.attempt! + 1);
      await store.throttles.giveBackThrottle('login-link', 'u1', first.attempt!);
      // Another subject's scope cannot take back someone else's attempt by its id.
      await store.throttles.giveBackThrottle('login-link', 'u2', second.attempt!);
      expect(store.db.prepare('SELECT id FROM throttle_events').all()).toEqual([{ id: second.attempt }]);
    } finally {
      await store.close();
    }
  });
});

describe('unlinking the default person', () => {
  it('makes the oldest remaining link the default, ties broken by person', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-unlink-'));
    const at = new Date('2026-10-01T10:00:00Z');
    const store = await openSqliteStore(path.join(dir, 'bot.sqlite'), SECRET, () => at);
    try {
      for (const person of ['p1', 'p3', 'p2']) await store.links.linkPerson('g1', 'u1', person, 'credentials');
      expect(await store.links.unlinkPerson('g1', 'u1', 'p1')).toBe(true);
      const links = await store.links.linkedPersons('g1', 'u1');
      expect(links.find((l) => l.isDefault)?.personId).toBe('p2');
    } finally {
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
