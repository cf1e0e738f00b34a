/** Server settings, sealed Eventor keys and channels on PostgreSQL (tables guild_settings, guild_channels). */
import type { EventorConnectionRecord, GuildSettings, GuildSettingsUpdate, ServerStore } from '../interfaces.js';
import { GUILD_SETTINGS_COLUMNS as COLUMNS, type GuildRow } from '../rows.js';
import type { SecretBox } from '../secrets.js';
import type { PartContext, Queryable } from './connection.js';

async function ensureGuild(q: Queryable, guildId: string, now: string): Promise<void> {
  await q.query(
    'INSERT INTO guild_settings (guild_id, created_at, updated_at) VALUES ($1, $2, $2) ON CONFLICT (guild_id) DO NOTHING',
    [guildId, now],
  );
}

/** Settings and channels in one statement, so from one snapshot: a channel set meanwhile cannot show half. */
async function readSettings(q: Queryable, guildId: string): Promise<GuildSettings | null> {
  const { rows } = await q.query<GuildRow & { channels: Array<[string, string]> }>(
    `SELECT g.*, COALESCE((SELECT json_agg(json_build_array(c.kind, c.channel_id) ORDER BY c.kind)
       FROM guild_channels c WHERE c.guild_id = g.guild_id), '[]') AS channels
     FROM guild_settings g WHERE g.guild_id = $1`,
    [guildId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    guildId: row.guild_id,
    eventorInstance: row.eventor_instance,
    eventorBaseUrl: row.eventor_base_url,
    hasApiKey: row.api_key_sealed !== null,
    organisationId: row.organisation_id,
    organisationName: row.organisation_name,
    locale: row.locale,
    timeZone: row.time_zone,
    channels: Object.fromEntries(row.channels),
    updatedAt: row.updated_at,
  };
}

export class PostgresServerStore implements ServerStore {
  readonly #ctx: PartContext;
  readonly #secrets: SecretBox;

  constructor(ctx: PartContext, secrets: SecretBox) {
    this.#ctx = ctx;
    this.#secrets = secrets;
  }

  guildSettings(guildId: string): Promise<GuildSettings | null> {
    return readSettings(this.#ctx.db, guildId);
  }

  updateGuildSettings(guildId: string, update: GuildSettingsUpdate): Promise<GuildSettings> {
    const now = this.#ctx.now().toISOString();
    return this.#ctx.db.atomic(async (q) => {
      await ensureGuild(q, guildId, now);
      for (const [field, column] of Object.entries(COLUMNS) as Array<[keyof GuildSettingsUpdate, string]>) {
        if (field in update)
          await q.query(`UPDATE guild_settings SET ${column} = $1, updated_at = $2 WHERE guild_id = $3`, [
            update[field] ?? null,
            now,
            guildId,
          ]);
      }
      return (await readSettings(q, guildId))!;
    });
  }

  async setApiKey(guildId: string, apiKey: string, organisation: { id: string; name: string }): Promise<void> {
    const now = this.#ctx.now().toISOString();
    const sealed = this.#secrets.seal(apiKey);
    await this.#ctx.db.atomic(async (q) => {
      await ensureGuild(q, guildId, now);
      await q.query(
        'UPDATE guild_settings SET api_key_sealed = $1, organisation_id = $2, organisation_name = $3, updated_at = $4 WHERE guild_id = $5',
        [sealed, organisation.id, organisation.name, now, guildId],
      );
    });
  }

  connectEventor(guildId: string, connection: EventorConnectionRecord): Promise<GuildSettings> {
    const now = this.#ctx.now().toISOString();
    const sealed = this.#secrets.seal(connection.apiKey);
    return this.#ctx.db.atomic(async (q) => {
      await ensureGuild(q, guildId, now);
      await q.query(
        `UPDATE guild_settings SET eventor_instance = $1, eventor_base_url = $2, api_key_sealed = $3, organisation_id = $4,
           organisation_name = $5, updated_at = $6 WHERE guild_id = $7`,
        [
          connection.instance,
          connection.baseUrl,
          sealed,
          connection.organisation.id,
          connection.organisation.name,
          now,
          guildId,
        ],
      );
      return (await readSettings(q, guildId))!;
    });
  }

  async apiKey(guildId: string): Promise<string | null> {
    const { rows } = await this.#ctx.db.query<{ api_key_sealed: string | null }>(
      'SELECT api_key_sealed FROM guild_settings WHERE guild_id = $1',
      [guildId],
    );
    const sealed = rows[0]?.api_key_sealed;
    return sealed ? this.#secrets.open(sealed) : null;
  }

  async setChannel(guildId: string, kind: string, channelId: string | null): Promise<void> {
    const now = this.#ctx.now().toISOString();
    await this.#ctx.db.atomic(async (q) => {
      await ensureGuild(q, guildId, now);
      if (channelId === null)
        await q.query('DELETE FROM guild_channels WHERE guild_id = $1 AND kind = $2', [guildId, kind]);
      else
        await q.query(
          `INSERT INTO guild_channels (guild_id, kind, channel_id) VALUES ($1, $2, $3)
           ON CONFLICT (guild_id, kind) DO UPDATE SET channel_id = excluded.channel_id`,
          [guildId, kind, channelId],
        );
      await q.query('UPDATE guild_settings SET updated_at = $1 WHERE guild_id = $2', [now, guildId]);
    });
  }
}
