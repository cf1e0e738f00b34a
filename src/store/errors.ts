/** A store that cannot be opened or used, said in words for the operator (never a stack trace). */
export class StoreError extends Error {
  override name = 'StoreError';
}
