/**
 * Numbered schema migrations. Each runs once, in order, inside a transaction; the number of the
 * last one applied is SQLite's `user_version`. Never edit a released migration: add the next.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: server settings, encrypted API keys, channels per kind of automatic post, member links,
  // and the ledger of posted items that makes automatic posts exactly-once.
  `
  CREATE TABLE guild_settings (
    guild_id          TEXT PRIMARY KEY,
    eventor_instance  TEXT,
    eventor_base_url  TEXT,
    api_key_sealed    TEXT,
    organisation_id   TEXT,
    organisation_name TEXT,
    locale            TEXT,
    time_zone         TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
  ) STRICT;

  CREATE TABLE guild_channels (
    guild_id   TEXT NOT NULL REFERENCES guild_settings(guild_id) ON DELETE CASCADE,
    kind       TEXT NOT NULL,
    channel_id TEXT NOT NULL,
    PRIMARY KEY (guild_id, kind)
  ) STRICT;

  CREATE TABLE member_links (
    guild_id   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    person_id  TEXT NOT NULL,
    is_default INTEGER NOT NULL DEFAULT 0,
    method     TEXT NOT NULL,
    linked_at  TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id, person_id)
  ) STRICT;
  CREATE INDEX member_links_person ON member_links (guild_id, person_id);

  CREATE TABLE posted_items (
    guild_id     TEXT NOT NULL,
    feed         TEXT NOT NULL,
    item_key     TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    channel_id   TEXT NOT NULL,
    message_id   TEXT,
    state        TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (guild_id, feed, item_key)
  ) STRICT;
  `,
  // 2: the audit log of links, unlinks, card changes and login-link requests: who, when, for which
  // person; never a link or a password. Also what rate limits count.
  `
  CREATE TABLE audit_log (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   TEXT NOT NULL,
    actor_id   TEXT NOT NULL,
    subject_id TEXT,
    person_id  TEXT,
    action     TEXT NOT NULL,
    detail     TEXT,
    at         TEXT NOT NULL
  ) STRICT;
  CREATE INDEX audit_log_guild ON audit_log (guild_id, at);
  CREATE INDEX audit_log_actor ON audit_log (guild_id, actor_id, action, at);
  `,
  // 3: requests to be linked that wait for an admin (decided ones stay until /forget-me, so a second
  // click on Approve or Deny finds them decided), and which ways of linking each server allows.
  `
  CREATE TABLE link_requests (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   TEXT NOT NULL,
    user_id    TEXT NOT NULL,
    person_id  TEXT NOT NULL,
    locale     TEXT NOT NULL,
    state      TEXT NOT NULL,
    decided_by TEXT,
    created_at TEXT NOT NULL,
    decided_at TEXT
  ) STRICT;
  CREATE INDEX link_requests_user ON link_requests (user_id);

  CREATE TABLE link_settings (
    guild_id    TEXT PRIMARY KEY,
    credentials INTEGER NOT NULL,
    approval    INTEGER NOT NULL
  ) STRICT;
  `,
  // 4: automatic posts (src/feeds/): the nonce of a post in flight in posted_items (its marker in
  // the message, so a restart finds a post it made but did not record), and when each server's feed
  // started (its first run seeds the ledger instead of posting history).
  `
  ALTER TABLE posted_items ADD COLUMN nonce TEXT;

  CREATE TABLE feed_state (
    guild_id   TEXT NOT NULL,
    feed       TEXT NOT NULL,
    started_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, feed)
  ) STRICT;
  `,
  // 5: how each server wants each kind of automatic post: on or off (off until an admin turns it
  // on), paused (by an admin, or by the bot when it may not post), a role to mention, lead times,
  // quiet hours and filters. The channel stays in guild_channels (set by /setup channel).
  `
  CREATE TABLE feed_settings (
    guild_id      TEXT NOT NULL,
    feed          TEXT NOT NULL,
    enabled       INTEGER NOT NULL DEFAULT 0,
    paused_reason TEXT,
    paused_at     TEXT,
    role_id       TEXT,
    options       TEXT NOT NULL DEFAULT '{}',
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (guild_id, feed)
  ) STRICT;
  `,
  // 6: a post recorded with what it shows (posted_items.pending_payload, the message as JSON) until
  // Discord has it, so a post that is not recomputed on the next run (a summary standing in for a
  // burst of items) is still finished after a crash; and each feed's last successful run, so a
  // restart knows how long the bot was away.
  `
  ALTER TABLE posted_items ADD COLUMN pending_payload TEXT;
  ALTER TABLE feed_state ADD COLUMN last_run_at TEXT;
  `,
  // 7: personal DMs (/notify): per server and member, start-time and result DMs on or off, the
  // member's language when they chose (DMs follow it), their DM channel once opened (so it is not
  // opened again on every run), and a pause the bot sets when Discord refuses the DMs (50007), kept
  // until the member turns the DMs on again.
  `
  CREATE TABLE notify_subscriptions (
    guild_id      TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    starts        INTEGER NOT NULL DEFAULT 0,
    results       INTEGER NOT NULL DEFAULT 0,
    locale        TEXT NOT NULL,
    dm_channel_id TEXT,
    paused_reason TEXT,
    paused_at     TEXT,
    created_at    TEXT NOT NULL,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (guild_id, user_id)
  ) STRICT;
  CREATE INDEX notify_subscriptions_user ON notify_subscriptions (user_id);
  `,
  // 8: security limits that must hold across servers, accounts and /forget-me: attempts counted
  // under a keyed hash (HMAC with a key derived from SECRET_KEY) of who tried, with when, and
  // nothing else; rows older than the longest window are pruned. `scope` names the limit
  // ('login-link' per Discord user, 'link-failure' per Eventor user name). And the servers the bot
  // was removed from, whose data is deleted once the grace period has passed.
  `
  CREATE TABLE throttle_events (
    scope   TEXT NOT NULL,
    subject TEXT NOT NULL,
    at      TEXT NOT NULL
  ) STRICT;
  CREATE INDEX throttle_events_subject ON throttle_events (scope, subject, at);

  CREATE TABLE guild_departures (
    guild_id TEXT PRIMARY KEY,
    left_at  TEXT NOT NULL
  ) STRICT;
  `,
  // 9: who is posting (or editing) an item right now, so that two processes on one database (two
  // `tick`s, a cron `tick` beside `start`) never both post it. A claim is a lease: its owner
  // (host:pid:random) releases it when done; a crashed owner's claim is taken over after
  // `expires_at`, or at once when the owner was a process on this host that no longer runs.
  `
  CREATE TABLE post_claims (
    guild_id   TEXT NOT NULL,
    feed       TEXT NOT NULL,
    item_key   TEXT NOT NULL,
    owner      TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    PRIMARY KEY (guild_id, feed, item_key)
  ) STRICT;
  `,
  // 10: throttle_events gets an explicit integer key (`id`), as PostgreSQL's table has, instead of
  // SQLite's implicit rowid. Rebuilt keeping every row under its old rowid, so an attempt handed out
  // before the upgrade can still be given back.
  `
  CREATE TABLE throttle_events_new (
    id      INTEGER PRIMARY KEY,
    scope   TEXT NOT NULL,
    subject TEXT NOT NULL,
    at      TEXT NOT NULL
  ) STRICT;
  INSERT INTO throttle_events_new (id, scope, subject, at) SELECT rowid, scope, subject, at FROM throttle_events;
  DROP TABLE throttle_events;
  ALTER TABLE throttle_events_new RENAME TO throttle_events;
  CREATE INDEX throttle_events_subject ON throttle_events (scope, subject, at);
  `,
  // 11: leases, so that several processes share work without doing it twice (the feeds of one club
  // run in one process per tick: docs/decisions/feed-leases.md): a lease's owner holds `name` until
  // `expires_at` (store clock). And when each server's daily member sweep last started, so that a
  // restart or another process does not sweep every server again at once.
  `
  CREATE TABLE leases (
    name       TEXT PRIMARY KEY,
    owner      TEXT NOT NULL,
    expires_at TEXT NOT NULL
  ) STRICT;

  CREATE TABLE member_sweeps (
    guild_id TEXT PRIMARY KEY,
    swept_at TEXT NOT NULL
  ) STRICT;
  `,
  // 12: the day-before reminder among the personal DMs (`/notify`): off for everyone until they
  // turn it on.
  `
  ALTER TABLE notify_subscriptions ADD COLUMN tomorrow INTEGER NOT NULL DEFAULT 0;
  `,
  // 13: each running process's heartbeat, which `eventor-bot health` reads (docs/operators.md#monitoring):
  // one row per process (named by its shards), replaced every half minute.
  `
  CREATE TABLE heartbeats (
    process           TEXT PRIMARY KEY,
    shard_count       INTEGER NOT NULL,
    shards            TEXT NOT NULL,
    pid               INTEGER NOT NULL,
    host              TEXT NOT NULL,
    started_at        TEXT NOT NULL,
    beat_at           TEXT NOT NULL,
    stopped_at        TEXT,
    gateway           TEXT NOT NULL,
    gateway_since     TEXT NOT NULL,
    feeds_at          TEXT,
    eventor_ok_at     TEXT,
    eventor_failed_at TEXT,
    discord_ok_at     TEXT,
    discord_failed_at TEXT
  ) STRICT;
  `,
  // 14: the club's season (docs/season.md#what-it-asks-eventor): the events of each server's club
  // found in Eventor, each with its races' results for the club once asked (settled once asked after
  // the days of corrections, and never asked again), how far looking for a year's events has come,
  // and the cups admins define. `source` names the Eventor and the club the rows are of.
  `
  CREATE TABLE season_events (
    guild_id   TEXT NOT NULL,
    source     TEXT NOT NULL,
    event_id   TEXT NOT NULL,
    first_day  TEXT NOT NULL,
    event      TEXT NOT NULL,
    races      TEXT,
    fetched_at TEXT,
    settled    INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, source, event_id)
  ) STRICT;
  CREATE INDEX season_events_day ON season_events (guild_id, source, first_day);

  CREATE TABLE season_scans (
    guild_id        TEXT NOT NULL,
    source          TEXT NOT NULL,
    year            INTEGER NOT NULL,
    scanned_through TEXT NOT NULL,
    scanned_at      TEXT NOT NULL,
    PRIMARY KEY (guild_id, source, year)
  ) STRICT;

  CREATE TABLE cups (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id   TEXT NOT NULL,
    name       TEXT NOT NULL,
    name_key   TEXT NOT NULL,
    rules      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  ) STRICT;
  CREATE UNIQUE INDEX cups_name ON cups (guild_id, name_key);
  `,
  // 15: whether a cup's standings are posted by the cup standings kind (docs/admins.md#cup-standings-posts).
  `
  ALTER TABLE cups ADD COLUMN post_standings INTEGER NOT NULL DEFAULT 0;
  `,
  // 16: race day, live (docs/live-results.md#race-day-in-discord): each server's races of the day
  // with the live competition each is (how it was found, what was offered, when its board turned
  // final), what the last poll of each competition read (keyed by the id as text), and the
  // members' DM when a linked person finishes, off until turned on.
  `
  CREATE TABLE live_races (
    guild_id       TEXT NOT NULL,
    event_id       TEXT NOT NULL,
    race_id        TEXT NOT NULL,
    race_day       TEXT NOT NULL,
    race           TEXT NOT NULL,
    competition_id INTEGER,
    how            TEXT NOT NULL,
    candidates     TEXT NOT NULL,
    final_at       TEXT,
    results_url    TEXT,
    updated_at     TEXT NOT NULL,
    PRIMARY KEY (guild_id, event_id, race_id)
  ) STRICT;
  CREATE INDEX live_races_day ON live_races (race_day);

  CREATE TABLE live_snapshots (
    competition_id TEXT PRIMARY KEY,
    state          TEXT NOT NULL,
    read_at        TEXT NOT NULL,
    changed_at     TEXT
  ) STRICT;

  ALTER TABLE notify_subscriptions ADD COLUMN live INTEGER NOT NULL DEFAULT 0;
  `,
];
