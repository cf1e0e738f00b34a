/** A store that cannot be opened or used, said in words for the operator (never a stack trace). */
export class StoreError extends Error {
  override name = 'StoreError';
  /**
   * Whether a restart cannot help: the database is damaged, from a newer version, of another
   * program, or the operator's setting (the path, the permissions, the password) is wrong. `start`
   * then exits 2, which the service manager does not restart (docs/operators.md#exit-codes).
   * Not for what passes by itself: a server not reachable yet, a full disk being cleared.
   */
  readonly lasting: boolean;

  constructor(message: string, options: { lasting?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.lasting = options.lasting ?? false;
  }
}
