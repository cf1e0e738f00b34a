import { describe, expect, it } from 'vitest';
import { databaseUrlFromEnv, shownDatabaseUrl } from '../../src/config/database.js';
import { ConfigError } from '../../src/config/errors.js';

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

  it('is shown with its password replaced', () => {
    expect(shownDatabaseUrl(`postgres://clubuser:${PASSWORD}@db.example.org:5432/eventor`)).toBe(
      'postgres://clubuser:***@db.example.org:5432/eventor',
    );
    expect(shownDatabaseUrl('postgres://bot@db.example.org/eventor')).toBe('postgres://bot@db.example.org/eventor');
    expect(shownDatabaseUrl(`nonsense ${PASSWORD}`)).not.toContain(PASSWORD);
  });
});
