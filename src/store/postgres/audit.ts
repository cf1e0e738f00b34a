/** The audit log on PostgreSQL: who did what, when, for which person; never a link, password or key. */
import type { AuditEntry, AuditRecord, AuditStore } from '../interfaces.js';
import { camelCased } from '../rows.js';
import { int, type PartContext } from './connection.js';

export class PostgresAuditStore implements AuditStore {
  readonly #ctx: PartContext;

  constructor(ctx: PartContext) {
    this.#ctx = ctx;
  }

  async audit(entry: AuditRecord): Promise<void> {
    await this.#ctx.db.query(
      'INSERT INTO audit_log (guild_id, actor_id, subject_id, person_id, action, detail, at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        entry.guildId,
        entry.actorId,
        entry.subjectId ?? null,
        entry.personId ?? null,
        entry.action,
        entry.detail ?? null,
        this.#ctx.now().toISOString(),
      ],
    );
  }

  async auditLog(guildId: string, limit = 50): Promise<AuditEntry[]> {
    const { rows } = await this.#ctx.db.query<{
      actor_id: string;
      subject_id: string | null;
      person_id: string | null;
      action: string;
      detail: string | null;
      at: string;
    }>(
      'SELECT actor_id, subject_id, person_id, action, detail, at FROM audit_log WHERE guild_id = $1 ORDER BY at DESC, id DESC LIMIT $2',
      [guildId, limit],
    );
    return rows.map((r) => camelCased(r));
  }

  async recentActions(
    guildId: string,
    actorId: string,
    action: string,
    since: Date,
  ): Promise<{ count: number; oldest: string | null }> {
    const { rows } = await this.#ctx.db.query<{ n: string; oldest: string | null }>(
      'SELECT count(*) AS n, min(at) AS oldest FROM audit_log WHERE guild_id = $1 AND actor_id = $2 AND action = $3 AND at >= $4',
      [guildId, actorId, action, since.toISOString()],
    );
    return { count: int(rows[0]!.n), oldest: rows[0]!.oldest };
  }
}
