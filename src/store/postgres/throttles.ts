/** Limits that hold across servers, accounts and processes, on PostgreSQL (throttle_events). */
import type { ThrottleStore } from '../interfaces.js';
import type { SecretBox } from '../secrets.js';
import { int, lockName, type PartContext } from './connection.js';

export class PostgresThrottleStore implements ThrottleStore {
  readonly #ctx: PartContext;
  readonly #secrets: SecretBox;

  constructor(ctx: PartContext, secrets: SecretBox) {
    this.#ctx = ctx;
    this.#secrets = secrets;
  }

  #subject(scope: string, who: string): string {
    return this.#secrets.keyedHash(`${scope}\u0000${who}`);
  }

  takeThrottle(
    scope: string,
    who: string,
    limit: number,
    windowMs: number,
  ): Promise<{ allowed: boolean; retryAt: Date | null; attempt: number | null }> {
    const now = this.#ctx.now();
    const subject = this.#subject(scope, who);
    const since = new Date(now.getTime() - windowMs).toISOString();
    return this.#ctx.db.atomic(async (q) => {
      // Attempts of one subject count and record one at a time across every process: without the
      // lock, N attempts arriving at once would all count the same N-1 earlier ones.
      await lockName(q, 'throttle_events', scope, subject);
      // Every subject's attempts past the scope's window go too. Rows another attempt is already
      // deleting are skipped rather than waited for: two prunes never wait on each other.
      await q.query(
        `DELETE FROM throttle_events WHERE id IN (
           SELECT id FROM throttle_events WHERE scope = $1 AND at < $2 FOR UPDATE SKIP LOCKED)`,
        [scope, since],
      );
      const { rows } = await q.query<{ n: string; oldest: string | null }>(
        'SELECT count(*) AS n, min(at) AS oldest FROM throttle_events WHERE scope = $1 AND subject = $2 AND at >= $3',
        [scope, subject, since],
      );
      const row = rows[0]!;
      if (int(row.n) >= limit)
        return { allowed: false, retryAt: new Date(Date.parse(row.oldest!) + windowMs), attempt: null };
      const inserted = await q.query<{ id: string }>(
        'INSERT INTO throttle_events (scope, subject, at) VALUES ($1, $2, $3) RETURNING id',
        [scope, subject, now.toISOString()],
      );
      return { allowed: true, retryAt: null, attempt: int(inserted.rows[0]!.id) };
    });
  }

  async giveBackThrottle(scope: string, who: string, attempt: number): Promise<void> {
    // Scope and subject too: an id alone could name a later row once the original was pruned.
    await this.#ctx.db.query('DELETE FROM throttle_events WHERE id = $1 AND scope = $2 AND subject = $3', [
      attempt,
      scope,
      this.#subject(scope, who),
    ]);
  }

  async throttled(
    scope: string,
    who: string,
    limit: number,
    windowMs: number,
  ): Promise<{ limited: boolean; retryAt: Date | null }> {
    const now = this.#ctx.now();
    const { rows } = await this.#ctx.db.query<{ n: string; oldest: string | null }>(
      'SELECT count(*) AS n, min(at) AS oldest FROM throttle_events WHERE scope = $1 AND subject = $2 AND at >= $3',
      [scope, this.#subject(scope, who), new Date(now.getTime() - windowMs).toISOString()],
    );
    const row = rows[0]!;
    return int(row.n) >= limit
      ? { limited: true, retryAt: new Date(Date.parse(row.oldest!) + windowMs) }
      : { limited: false, retryAt: null };
  }

  async pruneThrottles(olderThanMs: number): Promise<number> {
    const { rowCount } = await this.#ctx.db.query('DELETE FROM throttle_events WHERE at < $1', [
      new Date(this.#ctx.now().getTime() - olderThanMs).toISOString(),
    ]);
    return rowCount ?? 0;
  }
}
