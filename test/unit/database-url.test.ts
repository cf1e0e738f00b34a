import { describe, expect, it } from 'vitest';
import { databaseUrlFromEnv, databaseUrlSecrets } from '../../src/config/database.js';
import { ConfigError } from '../../src/config/errors.js';
import { describeTarget } from '../../src/store/postgres/target.js';

/** DATABASE_URL is read, checked and shown without ever quoting its password. */

const PASSWORD = 's3cret-Pa55';

function read(value: string | undefined): { url: string | null; problems: string[] } {
  const problems: string[] = [];
  return { url: databaseUrlFromEnv({ DATABASE_URL: value }, problems), problems };
}

describe('DATABASE_URL', () => {
  it('is absent by default: the embedded database', () => {
    expect(read(undefined)).toEqual({ url: null, problems: [] });
    expect(read('  ')).toEqual({ url: null, problems: [] });
  });

  it('takes postgres:// and postgresql:// URLs, trimmed', () => {
    for (const url of [
      `postgres://clubuser:${PASSWORD}@db.example.org:5432/eventor`,
      'postgresql://bot@127.0.0.1/eventor?sslmode=require',
      'postgres:///eventor?host=/var/run/postgresql',
    ])
      expect(read(` ${url} `)).toEqual({ url, problems: [] });
  });

  it('refuses anything else with one problem that never quotes the value', () => {
    for (const bad of [
      `mysql://clubuser:${PASSWORD}@db/eventor`,
      `clubuser:${PASSWORD}@db/eventor`,
      `postgres://clubuser:${PASSWORD}@db:99999/eventor`,
      `postgres://clubuser:${PASSWORD}@/eventor`,
    ]) {
      const { url, problems } = read(bad);
      expect(url, bad).toBeNull();
      expect(problems, bad).toHaveLength(1);
      expect(problems[0]).toMatch(/^DATABASE_URL .*it is not shown here, since it may hold a password$/);
      const message = new ConfigError(problems).message;
      expect(message).not.toContain(PASSWORD);
      expect(message).not.toContain('clubuser');
    }
  });

  it('names its database without the password, and takes the password out of a driver’s error', () => {
    const target = describeTarget(`postgres://clubuser:${PASSWORD}@db.example.org:5432/eventor`);
    expect(target.description).toBe('PostgreSQL database "eventor" on db.example.org:5432 as user "clubuser"');
    expect(target.scrub(new Error(`auth failed for ${PASSWORD}`))).toBe('auth failed for [hidden]');
  });
});

/**
 * Passwords holding the characters that end a URL's parts. Written encoded, the driver reads them
 * as written: accepted, and never shown. Written as they are, the address ends early and the rest
 * of the password reads as a host, a port, a database or a query: refused before anything connects,
 * in one problem that quotes no fragment of it.
 */
describe('DATABASE_URL with / @ : ? # % in its password', () => {
  /** Every piece of the password of three characters or more: what a message must not hold. */
  const fragments = (password: string): string[] =>
    password
      .split(/[/@:?#%]/)
      .flatMap((piece) => (piece.length >= 3 ? [piece] : []))
      .concat(password);

  const passwords = ['47/pw-Tail', 'ab@cd-Tail', 'ab:cd-Tail', '12?pw-Tail', '12#pw-Tail', '50%off-Tail', 'a%2Fb-Tail'];

  it('written percent-encoded, is read as written: accepted, named without it, masked in every form', () => {
    for (const password of passwords) {
      const url = `postgres://bot:${encodeURIComponent(password)}@db.example.org:5432/eventor`;
      const { url: accepted, problems } = read(url);
      expect(problems, password).toEqual([]);
      expect(accepted).toBe(url);
      const target = describeTarget(url);
      expect(target.description).toBe('PostgreSQL database "eventor" on db.example.org:5432 as user "bot"');
      const scrubbed = target.scrub(new Error(`${password} / ${encodeURIComponent(password)} / ${url}`));
      for (const fragment of fragments(password)) expect(scrubbed, password).not.toContain(fragment);
      expect(databaseUrlSecrets(url)).toContain(password);
    }
  });

  it('written as it is, where the driver would read it otherwise: one problem, no fragment of it', () => {
    for (const password of passwords) {
      const url = `postgres://bot:${password}@db.example.org:5432/eventor`;
      const { url: accepted, problems } = read(url);
      // `ab@cd` and `ab:cd` read the same either way (the last @ ends the user and password, the first
      // : the user); `50%off` too (a % that begins no encoding is a %), and `a%2Fb` (both read a/b:
      // a % of the password itself is written %25).
      if (['ab@cd-Tail', 'ab:cd-Tail', '50%off-Tail', 'a%2Fb-Tail'].includes(password)) {
        expect(problems, password).toEqual([]);
        expect(describeTarget(url).description).not.toContain('Tail');
        continue;
      }
      expect(accepted, password).toBeNull();
      expect(problems, password).toHaveLength(1);
      expect(problems[0]).toMatch(
        /^DATABASE_URL .*percent-encoded .*it is not shown here, since it may hold a password$/,
      );
      for (const fragment of fragments(password)) expect(problems[0], password).not.toContain(fragment);
      expect(() => describeTarget(url)).toThrow(/percent-encoded/);
    }
  });

  it('refuses a % beside an encoded character, which the driver reads apart from a person', () => {
    // The driver re-encodes a URL holding a stray %, so its %2F stays `%2F` where a person reads `/`.
    const { problems } = read('postgres://bot:a%2Fb%zz@db.example.org/eventor');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('its password');
  });

  it('says so when a certificate file the URL names cannot be read, as the driver reads it', () => {
    const { problems } = read(
      'postgres://bot@db.example.org/eventor?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem',
    );
    expect(problems).toEqual([
      expect.stringMatching(/names a file \(sslcert, sslkey or sslrootcert\) that cannot be read \(ENOENT\)/),
    ]);
  });

  it('finds a password in the query as the driver does, and never shows it', () => {
    const url = 'postgres://bot@db.example.org/eventor?password=q%2Fsecret-Tail';
    expect(read(url).problems).toEqual([]);
    const target = describeTarget(url);
    expect(target.description).not.toContain('secret');
    expect(target.scrub(new Error('q/secret-Tail and q%2Fsecret-Tail'))).toBe('[hidden] and [hidden]');
  });
});
