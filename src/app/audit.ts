/**
 * The audit log of a server: who did what, when, for which person (links, login links, chip
 * changes). The services record their own steps; a command records one only for what it does
 * itself (a chip change), and `/admin audit` reads it.
 */
import type { AuditEntry, AuditRecord, Store } from '../store/interfaces.js';

/** What one entry says; `detail` must never hold a login link, a password or a key. */
export type { AuditRecord };

export class AuditLog {
  readonly #store: Store;

  constructor(deps: { store: Store }) {
    this.#store = deps.store;
  }

  record(entry: AuditRecord): Promise<void> {
    return this.#store.audit.audit(entry);
  }

  /** The newest entries of a server, newest first. */
  recent(guildId: string, limit: number): Promise<AuditEntry[]> {
    return this.#store.audit.auditLog(guildId, limit);
  }
}
