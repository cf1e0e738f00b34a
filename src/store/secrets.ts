/**
 * Encryption of secrets at rest (Eventor API keys stored by /setup): AES-256-GCM under a key
 * derived from the operator's SECRET_KEY. The stored form names its version so the scheme can
 * change without losing what is stored.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, scrypt, scryptSync } from 'node:crypto';

const VERSION = 'v1';
// A fixed, public salt: SECRET_KEY is the secret; the salt only separates this use of it.
const SALT = Buffer.from('eventor-bot/secret-box/v1');
const KEY_BYTES = 32;

/** A key scrypt derived from a SECRET_KEY; made only by `SecretBox.derive`, so a box never gets a key from elsewhere. */
class DerivedKey {
  constructor(
    readonly secretKey: string,
    readonly bytes: Buffer,
  ) {}
}

function checkSecretKey(secretKey: string): void {
  if (secretKey.length < 16) throw new SecretBoxError('SECRET_KEY must be at least 16 characters');
}

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

export class SecretBox {
  readonly #key: Buffer;

  readonly #hashKey: Buffer;

  /** `derived` is `derive`'s way in: the key it derived from this same `secretKey`. */
  constructor(secretKey: string, derived?: DerivedKey) {
    checkSecretKey(secretKey);
    this.#key =
      derived instanceof DerivedKey && derived.secretKey === secretKey
        ? derived.bytes
        : scryptSync(secretKey, SALT, KEY_BYTES);
    // A second key from the same secret, so a hash never reveals anything about the sealing key.
    this.#hashKey = createHmac('sha256', this.#key).update('eventor-bot/keyed-hash/v1').digest();
  }

  /**
   * The same box as `new SecretBox(secretKey)` (scrypt with the same parameters, so the same key),
   * derived in libuv's thread pool: scrypt is slow on purpose, and meanwhile the main thread goes
   * on starting the bot. A SECRET_KEY that is too short is refused at once (thrown, not rejected).
   */
  static derive(secretKey: string): Promise<SecretBox> {
    checkSecretKey(secretKey);
    return new Promise((resolve, reject) => {
      scrypt(secretKey, SALT, KEY_BYTES, (error, bytes) => {
        if (error) reject(error);
        else resolve(new SecretBox(secretKey, new DerivedKey(secretKey, bytes)));
      });
    });
  }

  /**
   * A keyed hash (HMAC-SHA256) of an identifier: the same input gives the same hash, so limits can
   * count by it, but without SECRET_KEY nobody can tell whose it is or test a guess against it.
   */
  keyedHash(value: string): string {
    return createHmac('sha256', this.#hashKey).update(value, 'utf8').digest('base64url');
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join(':');
  }

  /** Throws SecretBoxError when the value was sealed under another SECRET_KEY or was altered. */
  open(sealed: string): string {
    const [version, iv, tag, body, extra] = sealed.split(':');
    if (version !== VERSION || iv === undefined || tag === undefined || body === undefined || extra !== undefined) {
      throw new SecretBoxError('stored secret is not in a known format');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretBoxError('stored secret cannot be decrypted: was SECRET_KEY changed?');
    }
  }
}
