/** The audit log (migration 2): who did what to whom, never a link, a password or a key. */
import type { AuditEntry, AuditRecord, AuditStore } from '../interfaces.js';
import type { SqliteContext, Synchronous } from './gate.js';

export class SqliteAuditStore implements Synchronous<AuditStore> {
  readonly #ctx: SqliteContext;

  constructor(ctx: SqliteContext) {
    this.#ctx = ctx;
  }

  audit(entry: AuditRecord): void {
    this.#ctx.db
      .prepare(
        'INSERT INTO audit_log (guild_id, actor_id, subject_id, person_id, action, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        entry.guildId,
        entry.actorId,
        entry.subjectId ?? null,
        entry.personId ?? null,
        entry.action,
        entry.detail ?? null,
        this.#ctx.now().toISOString(),
      );
  }

  auditLog(guildId: string, limit = 50): AuditEntry[] {
    const rows = this.#ctx.db
      .prepare(
        'SELECT actor_id, subject_id, person_id, action, detail, at FROM audit_log WHERE guild_id = ? ORDER BY at DESC, id DESC LIMIT ?',
      )
      .all(guildId, limit) as Array<{
      actor_id: string;
      subject_id: string | null;
      person_id: string | null;
      action: string;
      detail: string | null;
      at: string;
    }>;
    return rows.map((r) => ({
      actorId: r.actor_id,
      subjectId: r.subject_id,
      personId: r.person_id,
      action: r.action,
      detail: r.detail,
      at: r.at,
    }));
  }

  recentActions(
    guildId: string,
    actorId: string,
    action: string,
    since: Date,
  ): { count: number; oldest: string | null } {
    const row = this.#ctx.db
      .prepare(
        'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM audit_log WHERE guild_id = ? AND actor_id = ? AND action = ? AND at >= ?',
      )
      .get(guildId, actorId, action, since.toISOString()) as { n: number; oldest: string | null };
    return { count: row.n, oldest: row.oldest };
  }
}
