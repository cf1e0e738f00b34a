import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { SecretBox } from '../../src/store/secrets.js';
import { runProgram } from '../support/cli-process.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';

/**
 * `eventor-bot migrate`: a SQLite database copied into an empty PostgreSQL and back into a new
 * SQLite file loses nothing (every row of every table, ids included), PostgreSQL numbers new rows
 * after the copied ids, the store on PostgreSQL opens the copied keys, and a target that is not
 * empty is refused untouched.
 */

const SECRET = 'a-test-secret-key-that-is-long-enough';
const API_KEY = '0a1b2c3d4e5f60718293a4b5c6d7e8f9';
const PASSWORD = 'migrate-pa55word';

/** Every table's rows in a stable order, ids included (throttle_events' as its rowid). */
function dump(file: string): Record<string, string[]> {
  const db = openDatabase(file);
  try {
    const tables = (
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
        .all() as Array<{
        name: string;
      }>
    ).map((t) => t.name);
    return Object.fromEntries(
      tables.map((t) => [
        t,
        // Only throttle_events' rowid is data (its id): other tables' rowids are SQLite's own.
        (db.prepare(`SELECT ${t === 'throttle_events' ? 'rowid AS "(rowid)", ' : ''}* FROM ${t}`).all() as unknown[])
          .map((row) => JSON.stringify(row))
          .sort(),
      ]),
    );
  } finally {
    db.close();
  }
}

describe(`eventor-bot migrate ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();
  let dir = '';
  let admin: pg.Client | null = null;
  const box = new SecretBox(SECRET);

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-migrate-'));
    try {
      admin = new pg.Client({ connectionString: server().url });
    } catch {
      return;
    }
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await rm(dir, { recursive: true, force: true });
  });

  const database = async (name: string) => {
    await admin!.query(`CREATE DATABASE ${name}`);
    const url = new URL(server().url);
    url.pathname = `/${name}`;
    url.password = PASSWORD;
    return url.toString();
  };
  const migrate = (to: string, env: Record<string, string>) =>
    runProgram(['migrate', '--to', to], { env: { ...env, HOME: dir }, cwd: dir });

  it('copies every table into an empty PostgreSQL and back into a new SQLite file without losing a row', async () => {
    const source = path.join(dir, 'source.sqlite');
    const db = openDatabase(source);
    const now = '2026-03-01T10:00:00.000Z';
    db.exec(`
      INSERT INTO guild_settings (guild_id, eventor_instance, api_key_sealed, organisation_id, organisation_name, locale, created_at, updated_at)
        VALUES ('g1', 'se', '${box.seal(API_KEY)}', '321', 'OK Kopia', 'sv-SE', '${now}', '${now}'),
               ('g2', NULL, NULL, NULL, NULL, NULL, '${now}', '${now}');
      INSERT INTO guild_channels VALUES ('g1', 'results', 'c1'), ('g1', 'admin', 'c2');
      INSERT INTO member_links VALUES ('g1', 'u1', 'p1', 1, 'credentials', '${now}'), ('g1', 'u1', 'p2', 0, 'admin', '${now}');
      INSERT INTO link_requests (id, guild_id, user_id, person_id, locale, state, decided_by, created_at, decided_at)
        VALUES (4, 'g1', 'u2', 'p3', 'sv', 'approved', 'u1', '${now}', '${now}'), (9, 'g1', 'u3', 'p4', 'nb', 'pending', NULL, '${now}', NULL);
      INSERT INTO link_settings VALUES ('g1', 1, 0);
      INSERT INTO audit_log (id, guild_id, actor_id, subject_id, person_id, action, detail, at)
        VALUES (7, 'g1', 'u1', NULL, 'p1', 'link', NULL, '${now}'), (12, 'g1', 'u1', 'u2', 'p3', 'approve', 'å ä ö', '${now}');
      INSERT INTO posted_items (guild_id, feed, item_key, content_hash, channel_id, message_id, state, created_at, updated_at, nonce, pending_payload)
        VALUES ('g1', 'results', 'e1', 'h1', 'c1', 'm1', 'posted', '${now}', '${now}', NULL, NULL),
               ('g1', 'results', 'e2', 'h2', 'c1', NULL, 'posting', '${now}', '${now}', 'n2', '{"content":"x"}');
      INSERT INTO post_claims VALUES ('g1', 'results', 'e2', 'host:1:abc', '${now}');
      INSERT INTO feed_state VALUES ('g1', 'results', '${now}', '${now}');
      INSERT INTO feed_settings VALUES ('g1', 'results', 1, NULL, NULL, 'r1', '{"threads":true}', '${now}');
      INSERT INTO notify_subscriptions (guild_id, user_id, starts, results, tomorrow, locale, dm_channel_id, paused_reason, paused_at, created_at, updated_at)
        VALUES ('g1', 'u1', 1, 0, 1, 'sv', 'dm1', NULL, NULL, '${now}', '${now}');
      INSERT INTO throttle_events (scope, subject, at) VALUES ('login-link', 'first', '${now}'), ('login-link', '${box.keyedHash('x')}', '${now}');
      DELETE FROM throttle_events WHERE subject = 'first';
      INSERT INTO guild_departures VALUES ('g2', '${now}');
      INSERT INTO leases VALUES ('club:se|321', 'host:1:abc', '${now}'), ('shard:0', 'host:1:abc', '${now}');
      INSERT INTO member_sweeps VALUES ('g1', '${now}');
      INSERT INTO heartbeats VALUES ('0/1', 1, '0', 42, 'host', '${now}', '${now}', NULL, 'ready', '${now}', NULL, '${now}', NULL, NULL, NULL);
      INSERT INTO season_events (guild_id, source, event_id, first_day, event, races, fetched_at, settled)
        VALUES ('g1', '321', 'e1', '2026-05-09', '{"name":"Vårsprinten"}', '[]', '${now}', 1);
      INSERT INTO season_scans VALUES ('g1', '321', 2026, '2026-06-30', '${now}');
      INSERT INTO cups (id, guild_id, name, name_key, rules, created_at, updated_at)
        VALUES (3, 'g1', 'Klubbcupen', 'klubbcupen', '{"scoring":"place"}', '${now}', '${now}');
      INSERT INTO live_races VALUES ('g1', 'e1', 'r1', '2026-05-09', '{}', 50001, 'admin', '[]', NULL, NULL, '${now}');
      INSERT INTO live_snapshots VALUES ('50001', '{"runners":[]}', '${now}', NULL);
    `);
    db.close();
    const before = dump(source);
    expect(Object.values(before).every((rows) => rows.length > 0)).toBe(true);

    const url = await database('copy_target');
    const there = await migrate('postgres', { DATABASE_PATH: source, DATABASE_URL: url });
    expect(there.stderr).toBe('');
    expect(there.code).toBe(0);

    // The store on PostgreSQL reads the copy: the sealed key opens, and new rows follow the copied ids.
    const store = await openPostgresStore(url, box);
    try {
      expect(await store.servers.apiKey('g1')).toBe(API_KEY);
      expect((await store.links.linkRequest(9))!.personId).toBe('p4');
      const next = await store.links.createLinkRequest({ guildId: 'g1', userId: 'u9', personId: 'p9', locale: 'sv' });
      expect(next.id).toBe(10);
      await store.links.dropLinkRequest(next.id);
      const attempt = await store.throttles.takeThrottle('scope', 'who', 5, 60_000);
      // The one attempt copied is number 2.
      expect(attempt.attempt).toBe(3);
      await store.throttles.giveBackThrottle('scope', 'who', attempt.attempt!);
    } finally {
      await store.close();
    }

    const back = path.join(dir, 'back.sqlite');
    const home = await migrate('sqlite', { DATABASE_PATH: back, DATABASE_URL: url });
    expect(home.stderr).toBe('');
    expect(home.code).toBe(0);
    expect(dump(back)).toEqual(before);

    // Into the full database again: refused, nothing changed; the password never shown.
    const again = await migrate('postgres', { DATABASE_PATH: source, DATABASE_URL: url });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /^eventor-bot migrate: the PostgreSQL database "copy_target" on 127\.0\.0\.1:\d+ as user "postgres" is not empty \(rows in guild_settings, /,
    );
    expect(again.stderr).not.toContain(PASSWORD);
    const target = new pg.Client({ connectionString: url });
    await target.connect();
    try {
      const { rows } = await target.query<{ n: number }>('SELECT count(*)::integer AS n FROM audit_log');
      expect(rows).toEqual([{ n: 2 }]);
    } finally {
      await target.end();
    }
    // Back into an existing file: refused.
    const onto = await migrate('sqlite', { DATABASE_PATH: back, DATABASE_URL: url });
    expect(onto.code).toBe(1);
    expect(onto.stderr).toContain('already exists; name a new file');
  });

  it('says what is missing: DATABASE_URL, --to, or the SQLite file', async () => {
    const noUrl = await migrate('postgres', { DATABASE_PATH: path.join(dir, 'none.sqlite') });
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('DATABASE_URL must name the PostgreSQL database to copy to or from');
    const url = await database('never_written');
    const noFile = await migrate('postgres', { DATABASE_PATH: path.join(dir, 'none.sqlite'), DATABASE_URL: url });
    expect(noFile.code).toBe(1);
    expect(noFile.stderr).toContain('there is no database at');
    expect(existsSync(path.join(dir, 'none.sqlite'))).toBe(false);
    const badTo = await runProgram(['migrate', '--to', 'mysql'], { env: { HOME: dir }, cwd: dir });
    expect(badTo.code).toBe(2);
    expect(badTo.stderr).toContain('eventor-bot migrate --to postgres|sqlite');
  });
});
