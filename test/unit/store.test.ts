import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, StoreError } from '../../src/store/sqlite/database.js';
import { MIGRATIONS } from '../../src/store/sqlite/migrations.js';
import { SecretBox, SecretBoxError } from '../../src/store/secrets.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';

const SECRET = 'a-test-secret-key-that-is-long-enough';
const API_KEY = '058b7db0e5714f779d8821e7fbcd0307';

describe('store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a fresh database with WAL and every migration applied', () => {
    const file = path.join(dir, 'nested', 'bot.sqlite');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
    const tables = (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as Array<{ name: string }>
    ).map((t) => t.name);
    expect(tables).toEqual(
      expect.arrayContaining(['guild_settings', 'guild_channels', 'member_links', 'posted_items']),
    );
    db.close();
  });

  it('migrates an old database forward and keeps its data', () => {
    const file = path.join(dir, 'old.sqlite');
    const old = openDatabase(file, MIGRATIONS.slice(0, 1));
    old
      .prepare("INSERT INTO guild_settings (guild_id, locale, created_at, updated_at) VALUES ('g1', 'sv-SE', 'x', 'x')")
      .run();
    old.close();
    const next = [...MIGRATIONS, 'ALTER TABLE guild_settings ADD COLUMN extra TEXT;'];
    const db = openDatabase(file, next);
    expect(db.pragma('user_version', { simple: true })).toBe(next.length);
    expect(db.prepare("SELECT locale, extra FROM guild_settings WHERE guild_id = 'g1'").get()).toEqual({
      locale: 'sv-SE',
      extra: null,
    });
    db.close();
  });

  it('refuses a file that is not a database, with a clear message, and leaves it untouched', async () => {
    const file = path.join(dir, 'corrupt.sqlite');
    await writeFile(file, 'this is not sqlite '.repeat(500));
    expect(() => openDatabase(file)).toThrow(StoreError);
    expect(() => openDatabase(file)).toThrow(/corrupt\.sqlite.*(damaged|not a database)/);
    expect(await readFile(file, 'utf8')).toContain('this is not sqlite');
  });

  it('refuses a database from a newer version instead of starting empty', () => {
    const file = path.join(dir, 'future.sqlite');
    const db = new Database(file);
    db.pragma(`user_version = ${MIGRATIONS.length + 5}`);
    db.close();
    expect(() => openDatabase(file)).toThrow(/newer eventor-bot/);
  });

  it('stores the API key encrypted and gives it back only with the right SECRET_KEY', async () => {
    const file = path.join(dir, 'bot.sqlite');
    const store = await openSqliteStore(file, SECRET);
    await store.servers.setApiKey('g1', API_KEY, { id: '321', name: 'Sandbox OK' });
    await store.servers.setChannel('g1', 'results', 'c1');
    await store.servers.updateGuildSettings('g1', { locale: 'sv-SE', timeZone: 'Europe/Stockholm' });
    expect(await store.servers.apiKey('g1')).toBe(API_KEY);
    const settings = await store.servers.guildSettings('g1');
    expect(settings).toMatchObject({
      hasApiKey: true,
      organisationId: '321',
      locale: 'sv-SE',
      channels: { results: 'c1' },
    });
    expect(JSON.stringify(settings)).not.toContain(API_KEY);
    await store.close();

    for (const name of ['bot.sqlite', 'bot.sqlite-wal']) {
      const bytes = await readFile(path.join(dir, name)).catch(() => Buffer.alloc(0));
      expect(bytes.includes(Buffer.from(API_KEY))).toBe(false);
    }
    const wrong = await openSqliteStore(file, 'another-secret-key-entirely-123');
    await expect(wrong.servers.apiKey('g1')).rejects.toThrow(SecretBoxError);
    await expect(wrong.servers.apiKey('g1')).rejects.toThrow(/SECRET_KEY/);
    await wrong.close();
  });

  it('seals with a fresh nonce each time and detects tampering', () => {
    const box = new SecretBox(SECRET);
    const a = box.seal('secret');
    const b = box.seal('secret');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('secret');
    const parts = a.split(':');
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith('AA') ? 'BB' : 'AA');
    expect(() => box.open(parts.join(':'))).toThrow(SecretBoxError);
    expect(() => new SecretBox('short')).toThrow(/at least 16/);
  });

  it('derives the key off the main thread, the same key as the synchronous derivation', async () => {
    // The thread pool does the work: an event-loop turn passes before the key is there.
    let turned = false;
    const timer = setImmediate(() => (turned = true));
    const derived = SecretBox.derive(SECRET);
    const box = await derived;
    clearImmediate(timer);
    expect(turned).toBe(true);

    const sync = new SecretBox(SECRET);
    expect(box.open(sync.seal('secret'))).toBe('secret');
    expect(sync.open(box.seal('secret'))).toBe('secret');
    expect(box.keyedHash('member')).toBe(sync.keyedHash('member'));
    // A short key is refused at once, before any database is opened.
    expect(() => SecretBox.derive('short')).toThrow(/at least 16/);
  });

  it('opens with a key still being derived and reads what the synchronous open sealed', async () => {
    const file = path.join(dir, 'bot.sqlite');
    const first = await openSqliteStore(file, SECRET);
    await first.servers.setApiKey('g1', API_KEY, { id: '321', name: 'Sandbox OK' });
    await first.close();

    const store = await openSqliteStore(file, SecretBox.derive(SECRET));
    expect(await store.servers.apiKey('g1')).toBe(API_KEY);
    await store.close();

    // A database that cannot be opened is what is told, whatever the key does.
    await writeFile(path.join(dir, 'not-a-database.sqlite'), 'hello, this is not SQLite');
    await expect(
      openSqliteStore(path.join(dir, 'not-a-database.sqlite'), SecretBox.derive(SECRET)),
    ).rejects.toBeInstanceOf(StoreError);
  });
});

describe('member links', () => {
  it("keeps a user's linked persons with the first as default", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-links-'));
    try {
      const store = await openSqliteStore(path.join(dir, 'bot.sqlite'), SECRET);
      expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
      await store.links.linkPerson('g1', 'u1', 'p-parent', 'admin');
      await store.links.linkPerson('g1', 'u1', 'p-child', 'admin');
      await store.links.linkPerson('g1', 'u1', 'p-parent', 'credentials');
      const links = await store.links.linkedPersons('g1', 'u1');
      expect(links.map((l) => [l.personId, l.isDefault, l.method])).toEqual([
        ['p-parent', true, 'credentials'],
        ['p-child', false, 'admin'],
      ]);
      expect(await store.links.linkedPersons('g2', 'u1')).toEqual([]);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('audit log', () => {
  it('records actions newest first and counts recent ones for rate limits', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-audit-'));
    let clock = Date.parse('2026-11-22T12:00:00Z');
    try {
      const store = await openSqliteStore(path.join(dir, 'bot.sqlite'), SECRET, () => new Date(clock));
      await store.audit.audit({ guildId: 'g1', actorId: 'u1', personId: 'p1', action: 'login-link' });
      clock += 60_000;
      await store.audit.audit({ guildId: 'g1', actorId: 'u1', personId: 'p1', action: 'login-link' });
      clock += 60_000;
      await store.audit.audit({
        guildId: 'g1',
        actorId: 'admin',
        subjectId: 'u1',
        personId: 'p1',
        action: 'link',
        detail: 'admin',
      });
      expect((await store.audit.auditLog('g1')).map((e) => e.action)).toEqual(['link', 'login-link', 'login-link']);
      expect(await store.audit.auditLog('g2')).toEqual([]);
      expect(await store.audit.recentActions('g1', 'u1', 'login-link', new Date(clock - 90_000))).toEqual({
        count: 1,
        oldest: '2026-11-22T12:01:00.000Z',
      });
      expect((await store.audit.recentActions('g1', 'u1', 'login-link', new Date(clock - 600_000))).count).toBe(2);
      await store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
