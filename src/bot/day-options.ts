/**
 * Days as members type them: a date option read and refused with one clear message. The day
 * arithmetic itself is src/time/days.ts.
 */
import { parseDay } from '../time/days.js';
import { UserFacingError } from './command.js';

/** A `YYYY-MM-DD` the member typed, as `parseDay` reads it; anything else is refused with the expected form. */
export function requireDay(value: string): string {
  const text = value.trim();
  const day = parseDay(text);
  // Echo only harmless characters: this text ends up in a message that could otherwise mention.
  if (day === null)
    throw new UserFacingError('members.error.badDate', { value: text.replace(/[^0-9A-Za-z./-]/g, '').slice(0, 20) });
  return day;
}
