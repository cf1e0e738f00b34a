/**
 * Errors the services raise for the member to read. They carry a catalogue key and its variables,
 * never text, so the router shows them in the reader's language.
 */
import { Message, type MessageKey, type VarsArgument } from './index.js';

/** An error whose message the member should see, in their language. */
export class UserFacingError<K extends MessageKey = MessageKey> extends Error {
  /** The key with its variables, checked against the key's text as `t()` checks them. */
  readonly said: Message<K>;

  constructor(
    readonly key: K,
    ...vars: VarsArgument<K>
  ) {
    super(key);
    this.name = 'UserFacingError';
    this.said = Message.of(key, ...vars);
  }
}
