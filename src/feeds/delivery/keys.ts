/**
 * The names the ledger files posts under, and the hashes that tell a changed post from an unchanged
 * one. Every key and feed name of `posted_items` is built here, by every kind, the threads and the
 * personal DMs alike, so no two places can spell one key differently. Keys are stored: changing a
 * spelling here would post everything again, so the spellings stay what they have always been
 * (parts joined by `:`, the first naming the kind or the namespace).
 */
import { createHash } from 'node:crypto';
import type { MessagePayload } from '../../render/index.js';

export type KeyPart = string | number;

/** A ledger key (or feed name): its parts joined by `:`, e.g. `results:<eventId>:<raceId>`. */
export function ledgerKey(namespace: string, ...parts: KeyPart[]): string {
  return [namespace, ...parts].join(':');
}

/** What every key that continues these parts starts with (`ledgerKey(...) + ':'`), for prefix lookups. */
export function ledgerKeyPrefix(namespace: string, ...parts: KeyPart[]): string {
  return `${ledgerKey(namespace, ...parts)}:`;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The hash of what a payload shows: a changed hash means the post is edited. */
export function contentHash(payload: MessagePayload): string {
  return sha256(JSON.stringify(payload));
}
