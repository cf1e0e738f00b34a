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

/**
 * The hash of what a payload shows: a changed hash means the post is edited. Pictures count by their
 * name, alt text and the hash of their bytes (a payload without pictures hashes as it always has).
 */
export function contentHash(payload: MessagePayload): string {
  if (payload.pictures === undefined) return sha256(JSON.stringify(payload));
  const pictures = payload.pictures.map((p) => ({
    name: p.name,
    description: p.description,
    bytes: createHash('sha256').update(p.data).digest('hex'),
  }));
  return sha256(JSON.stringify({ ...payload, pictures }));
}
