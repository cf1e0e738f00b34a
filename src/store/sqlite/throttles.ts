/** Limits that hold across servers, accounts and processes (migrations 8 and 10; SECURITY.md). */
import type { ThrottleStore } from '../interfaces.js';
import type { SecretBox } from '../secrets.js';
import type { SqliteContext, Synchronous } from './gate.js';

export class SqliteThrottleStore implements Synchronous<ThrottleStore> {
  readonly #ctx: SqliteContext;
  readonly #secrets: SecretBox;

  constructor(ctx: SqliteContext, secrets: SecretBox) {
    this.#ctx = ctx;
    this.#secrets = secrets;
  }

  /**
   * Counts and records in one IMMEDIATE transaction: SQLite's write lock is taken before the
   * count, so no other connection can record between the check and the record.
   *
   * A scope has one window, so every subject's attempts past it are dropped here too: nothing is
   * kept longer than its limit needs, whoever comes back.
   */
  takeThrottle(
    scope: string,
    who: string,
    limit: number,
    windowMs: number,
  ): { allowed: boolean; retryAt: Date | null; attempt: number | null } {
    const db = this.#ctx.db;
    const now = this.#ctx.now();
    const subject = this.#secrets.keyedHash(`${scope}\u0000${who}`);
    const since = new Date(now.getTime() - windowMs).toISOString();
    return db
      .transaction(() => {
        db.prepare('DELETE FROM throttle_events WHERE scope = ? AND at < ?').run(scope, since);
        const row = db
          .prepare(
            'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM throttle_events WHERE scope = ? AND subject = ? AND at >= ?',
          )
          .get(scope, subject, since) as { n: number; oldest: string | null };
        if (row.n >= limit)
          return { allowed: false, retryAt: new Date(Date.parse(row.oldest!) + windowMs), attempt: null };
        const inserted = db
          .prepare('INSERT INTO throttle_events (scope, subject, at) VALUES (?, ?, ?)')
          .run(scope, subject, now.toISOString());
        return { allowed: true, retryAt: null, attempt: Number(inserted.lastInsertRowid) };
      })
      .immediate();
  }

  giveBackThrottle(scope: string, who: string, attempt: number): void {
    // Scope and subject too: an id alone could name a later row once the original was pruned.
    const subject = this.#secrets.keyedHash(`${scope}\u0000${who}`);
    this.#ctx.db
      .prepare('DELETE FROM throttle_events WHERE id = ? AND scope = ? AND subject = ?')
      .run(attempt, scope, subject);
  }

  throttled(scope: string, who: string, limit: number, windowMs: number): { limited: boolean; retryAt: Date | null } {
    const now = this.#ctx.now();
    const subject = this.#secrets.keyedHash(`${scope}\u0000${who}`);
    const row = this.#ctx.db
      .prepare(
        'SELECT COUNT(*) AS n, MIN(at) AS oldest FROM throttle_events WHERE scope = ? AND subject = ? AND at >= ?',
      )
      .get(scope, subject, new Date(now.getTime() - windowMs).toISOString()) as { n: number; oldest: string | null };
    return row.n >= limit
      ? { limited: true, retryAt: new Date(Date.parse(row.oldest!) + windowMs) }
      : { limited: false, retryAt: null };
  }

  pruneThrottles(olderThanMs: number): number {
    return this.#ctx.db
      .prepare('DELETE FROM throttle_events WHERE at < ?')
      .run(new Date(this.#ctx.now().getTime() - olderThanMs).toISOString()).changes;
  }
}
