/**
 * Errors the services raise for the member to read. They carry a catalogue key, never text, so the
 * router shows them in the reader's language.
 */
import type { MessageKey } from '../i18n/index.js';

/** An error whose message the member should see, in their language. */
export class UserFacingError extends Error {
  constructor(readonly key: MessageKey, readonly vars: Record<string, string | number> = {}) {
    super(key);
    this.name = 'UserFacingError';
  }
}
