import { randomBytes } from 'node:crypto';
import { DISCORD_EPOCH } from './constants.js';

/**
 * Snowflakes derived from the injectable clock, so ids sort like real ones and decode to the
 * sandbox's notion of "now" (discord.js derives `createdTimestamp` from them).
 */
export class Snowflakes {
  private increment = 0n;
  private last = 0n;

  constructor(private readonly now: () => number) {}

  next(): string {
    let ms = BigInt(Math.floor(this.now())) - DISCORD_EPOCH;
    if (ms < 0n) ms = 0n;
    // Never go backwards even if a test moves the clock back: ids must stay unique and ordered.
    if (ms < this.last) ms = this.last;
    if (ms === this.last) this.increment += 1n;
    else this.increment = 0n;
    if (this.increment >= 4096n) {
      ms += 1n;
      this.increment = 0n;
    }
    this.last = ms;
    return ((ms << 22n) | (1n << 17n) | this.increment).toString();
  }
}

/**
 * A bot token that is obviously not a Discord token (no base64 user id, no HMAC part), so secret
 * scanners and humans reading logs never mistake it for a leaked credential.
 */
export function sandboxToken(kind: 'bot' | 'interaction'): string {
  return `sandbox.${kind}.${randomBytes(18).toString('hex')}`;
}
