/** Server settings, the sealed Eventor key and the channels per kind (tables of migration 1). */
import type { GuildSettings, GuildSettingsUpdate, EventorConnectionRecord, ServerStore } from '../interfaces.js';
import { GUILD_SETTINGS_COLUMNS as COLUMNS, type GuildRow } from '../rows.js';
import type { SecretBox } from '../secrets.js';
import type { SqliteContext, Synchronous } from './gate.js';
import { prepared } from './statements.js';

export class SqliteServerStore implements Synchronous<ServerStore> {
  readonly #ctx: SqliteContext;
  readonly #secrets: SecretBox;

  constructor(ctx: SqliteContext, secrets: SecretBox) {
    this.#ctx = ctx;
    this.#secrets = secrets;
  }

  guildSettings(guildId: string): GuildSettings | null {
    const db = this.#ctx.db;
    // Compiled once (`prepared`): the feed scheduler reads every server's settings on every tick.
    const row = prepared(db, 'SELECT * FROM guild_settings WHERE guild_id = ?').get(guildId) as GuildRow | undefined;
    if (!row) return null;
    const channels = prepared(db, 'SELECT kind, channel_id FROM guild_channels WHERE guild_id = ? ORDER BY kind').all(
      guildId,
    ) as Array<{ kind: string; channel_id: string }>;
    return {
      guildId: row.guild_id,
      eventorInstance: row.eventor_instance,
      eventorBaseUrl: row.eventor_base_url,
      hasApiKey: row.api_key_sealed !== null,
      organisationId: row.organisation_id,
      organisationName: row.organisation_name,
      locale: row.locale,
      timeZone: row.time_zone,
      channels: Object.fromEntries(channels.map((c) => [c.kind, c.channel_id])),
      updatedAt: row.updated_at,
    };
  }

  updateGuildSettings(guildId: string, update: GuildSettingsUpdate): GuildSettings {
    const db = this.#ctx.db;
    const now = this.#ctx.now().toISOString();
    return db.transaction(() => {
      this.#ensureGuild(guildId, now);
      for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof GuildSettingsUpdate, string]>) {
        if (field in update) {
          db.prepare(`UPDATE guild_settings SET ${column} = ?, updated_at = ? WHERE guild_id = ?`).run(
            update[field] ?? null,
            now,
            guildId,
          );
        }
      }
      return this.guildSettings(guildId)!;
    })();
  }

  setApiKey(guildId: string, apiKey: string, organisation: { id: string; name: string }): void {
    const db = this.#ctx.db;
    const now = this.#ctx.now().toISOString();
    const sealed = this.#secrets.seal(apiKey);
    db.transaction(() => {
      this.#ensureGuild(guildId, now);
      db.prepare(
        'UPDATE guild_settings SET api_key_sealed = ?, organisation_id = ?, organisation_name = ?, updated_at = ? WHERE guild_id = ?',
      ).run(sealed, organisation.id, organisation.name, now, guildId);
    })();
  }

  /**
   * Points a server at an Eventor with a key that was just checked: instance, base URL, sealed
   * key and organisation change together or not at all, so a half-written connection (a new key
   * with the old instance) can never be read back.
   */
  connectEventor(guildId: string, connection: EventorConnectionRecord): GuildSettings {
    const db = this.#ctx.db;
    const now = this.#ctx.now().toISOString();
    const sealed = this.#secrets.seal(connection.apiKey);
    return db.transaction(() => {
      this.#ensureGuild(guildId, now);
      db.prepare(
        'UPDATE guild_settings SET eventor_instance = ?, eventor_base_url = ?, api_key_sealed = ?, organisation_id = ?, organisation_name = ?, updated_at = ? WHERE guild_id = ?',
      ).run(
        connection.instance,
        connection.baseUrl,
        sealed,
        connection.organisation.id,
        connection.organisation.name,
        now,
        guildId,
      );
      return this.guildSettings(guildId)!;
    })();
  }

  apiKey(guildId: string): string | null {
    const row = this.#ctx.db.prepare('SELECT api_key_sealed FROM guild_settings WHERE guild_id = ?').get(guildId) as
      { api_key_sealed: string | null } | undefined;
    return row?.api_key_sealed ? this.#secrets.open(row.api_key_sealed) : null;
  }

  setChannel(guildId: string, kind: string, channelId: string | null): void {
    const db = this.#ctx.db;
    const now = this.#ctx.now().toISOString();
    db.transaction(() => {
      this.#ensureGuild(guildId, now);
      if (channelId === null)
        db.prepare('DELETE FROM guild_channels WHERE guild_id = ? AND kind = ?').run(guildId, kind);
      else
        db.prepare(
          'INSERT INTO guild_channels (guild_id, kind, channel_id) VALUES (?, ?, ?) ON CONFLICT (guild_id, kind) DO UPDATE SET channel_id = excluded.channel_id',
        ).run(guildId, kind, channelId);
      db.prepare('UPDATE guild_settings SET updated_at = ? WHERE guild_id = ?').run(now, guildId);
    })();
  }

  #ensureGuild(guildId: string, now: string): void {
    this.#ctx.db
      .prepare(
        'INSERT INTO guild_settings (guild_id, created_at, updated_at) VALUES (?, ?, ?) ON CONFLICT (guild_id) DO NOTHING',
      )
      .run(guildId, now, now);
  }
}
