import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProgram } from '../support/bot-process.js';
import { runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';

/**
 * deploy/compose.postgres.yaml's bots with a password made of every character that breaks a URL,
 * against a real PostgreSQL that checks passwords (SCRAM, as the postgres image sets up): the bot
 * starts with the environment the compose file gives it, and `health` reads its heartbeat. Docker
 * itself cannot run here, so the compose file's values are taken as Compose would substitute them.
 */

const compose = readFileSync(path.resolve('deploy/compose.postgres.yaml'), 'utf8');
const PASSWORD = `p@ss:w/rd?#[]%40&=+ "'$\\{}é`;

/** bot-0's environment, with `${POSTGRES_PASSWORD…}` replaced by `password` as Compose does. */
function botEnvironment(password: string): Record<string, string> {
  const service = /^ {2}bot-0:\n((?: {4}.*\n)+)/m.exec(compose)![1]!;
  const environment: Record<string, string> = {};
  for (const [, name, raw] of service.matchAll(/^ {6}([A-Z][A-Z0-9_]*): (.*)$/gm)) {
    environment[name!] = raw!
      .replace(/^'(.*)'$/, '$1')
      .replace(/\$\{POSTGRES_PASSWORD(?::\?[^}]*)?\}/g, () => password);
  }
  return environment;
}

describe(`compose.postgres.yaml: any character in POSTGRES_PASSWORD ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();
  let setup: OperatorSetup;
  beforeAll(async () => {
    setup = await startOperatorSetup('compose-postgres');
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('the bot starts on it and health reads its heartbeat; a wrong one is refused without showing it', async () => {
    const admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    try {
      // The user the compose file names, with a password PostgreSQL checks (trust stays for the rest).
      const hba = path.join(server().dataDir, 'pg_hba.conf');
      writeFileSync(hba, `host all eventor-bot 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
      await admin.query('SELECT pg_reload_conf()');
      const { rows } = await admin.query<{ sql: string }>(
        "SELECT format('CREATE ROLE %I LOGIN PASSWORD %L', $1::text, $2::text) AS sql",
        ['eventor-bot', PASSWORD],
      );
      await admin.query(rows[0]!.sql);
      await admin.query('CREATE DATABASE eventor OWNER "eventor-bot"');
    } finally {
      await admin.end();
    }
    const port = new URL(server().url).port;
    const composed = botEnvironment(PASSWORD);
    expect(composed.DATABASE_URL).toBe('postgres://eventor-bot@postgres:5432/eventor');
    expect(composed.PGPASSWORD).toBe(PASSWORD);
    const env = {
      ...setup.env,
      ...composed,
      // The compose network's `postgres` is this machine's loopback here.
      DATABASE_URL: composed.DATABASE_URL!.replace('@postgres:5432', `@127.0.0.1:${port}`),
    };

    const bot = startProgram(['start'], { env });
    try {
      expect(await bot.waitFor('"msg":"bot ready"')).toBe(true);
      const { code, stdout } = await runProgram(['health'], { env });
      expect(code).toBe(0);
      expect(stdout).toMatch(/^healthy: process shards 0 of 3, /);
    } finally {
      expect(await bot.stop()).toBe(0);
    }
    expect(bot.stderr()).not.toContain(PASSWORD);

    const wrong = await runProgram(['health'], { env: { ...env, PGPASSWORD: `${PASSWORD}x` } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('password authentication failed for user "eventor-bot"');
    expect(wrong.stderr).not.toContain(PASSWORD);
  });
});
