import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likelyMeant, VARIABLES } from '../../src/config/variables.js';
import { runProgram } from '../support/cli-process.js';
import { type OperatorSetup, startOperatorSetup } from '../support/operator-env.js';

/** A `.env` file's text from variables. */
const dotEnv = (vars: Record<string, string | undefined>): string =>
  Object.entries(vars)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

describe('unknown variables in .env and the environment: one warning line, with the likely meant one', () => {
  let setup: OperatorSetup;

  beforeAll(async () => {
    setup = await startOperatorSetup('env-warnings');
  });
  afterAll(async () => {
    await setup?.close();
  });

  const folder = async (name: string, text: string): Promise<string> => {
    const dir = await mkdtemp(path.join(setup.dir, `${name}-`));
    await writeFile(path.join(dir, '.env'), `${text}\n`);
    return dir;
  };

  it('a misspelt DISCORD_TOKEN: the missing one and the typo are both said, and the token is not', async () => {
    const { DISCORD_TOKEN, ...rest } = setup.env;
    const dir = await folder('typo', dotEnv({ ...rest, DISCORD_TOKN: DISCORD_TOKEN }));
    const { code, stderr } = await runProgram(['start'], { cwd: dir });
    expect(code).toBe(2);
    expect(stderr).toContain('DISCORD_TOKEN must be set');
    const warnings = stderr.split('\n').filter((l) => l.includes('unknown variables'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('DISCORD_TOKN (in .env; did you mean DISCORD_TOKEN?)');
    expect(stderr).not.toContain(DISCORD_TOKEN!);
    expect(stderr).not.toContain(setup.eventor.apiKey);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('a working configuration still runs, with one warning naming .env’s unknown names and our look-alikes in the environment', async () => {
    const hexKey = 'deadbeefcafe0123456789abcdef0123';
    const dir = await folder(
      'extra',
      [
        dotEnv({ ...setup.env, DATABASE_PATH: path.join(setup.dir, 'extra.sqlite') }),
        'EVENTOR_APIKEY=also-a-secret-value',
        'CLUB_NAME=OK Linné',
        'TZ=Europe/Stockholm',
        // A key pasted as a name: not a variable name, so it is counted, never quoted.
        `${hexKey}=x`,
      ].join('\n'),
    );
    const { code, stderr } = await runProgram(['tick'], {
      cwd: dir,
      env: { EVENTOR_TIMEOUTMS: '5000', DISCORD_TOKEN_OLD: 'x', SOMETHING_ELSE: 'not ours' },
    });
    expect({ code, stderr }).toMatchObject({ code: 0 });
    const warnings = stderr.split('\n').filter((l) => l.includes('unknown variables'));
    expect(warnings).toHaveLength(1);
    const line = JSON.parse(warnings[0]!) as { level: string; msg: string };
    expect(line.level).toBe('warn');
    expect(line.msg).toBe(
      'unknown variables, ignored: CLUB_NAME (in .env), DISCORD_TOKEN_OLD (in the environment), ' +
        'EVENTOR_APIKEY (in .env; did you mean EVENTOR_API_KEY?), EVENTOR_TIMEOUTMS (in the environment; did you mean EVENTOR_TIMEOUT_MS?), ' +
        '1 more whose names are not variable names (not shown); the known ones are in .env.example',
    );
    for (const secret of [hexKey, 'also-a-secret-value', setup.discord.token, setup.eventor.apiKey, setup.secretKey])
      expect(stderr).not.toContain(secret);
    expect(stderr).toContain('"msg":"tick done"');
  });

  it('no warning when every name is known', async () => {
    const dir = await folder('clean', dotEnv({ ...setup.env, DATABASE_PATH: path.join(setup.dir, 'clean.sqlite') }));
    const { code, stderr } = await runProgram(['tick'], { cwd: dir });
    expect(code).toBe(0);
    expect(stderr).not.toContain('unknown variables');
  });

  it('the likely meant variable: within two edits, case aside; none for names far from every known one', () => {
    expect(likelyMeant('discord_token')).toBe('DISCORD_TOKEN');
    expect(likelyMeant('SECERT_KEY')).toBe('SECRET_KEY');
    expect(likelyMeant('EVENTOR_INSTANCES')).toBe('EVENTOR_INSTANCE');
    expect(likelyMeant('DATABSE_PTH')).toBe('DATABASE_PATH');
    expect(likelyMeant('EVENTOR_KEY')).toBeNull();
    expect(likelyMeant('CLUB_NAME')).toBeNull();
  });

  it('the known variables are the ones .env.example documents', () => {
    const documented = new Set(
      readFileSync('.env.example', 'utf8')
        .split('\n')
        .map((l) => /^#?([A-Z][A-Z0-9_]*)=/.exec(l)?.[1])
        .filter((n): n is string => n !== undefined),
    );
    // DISCORD_APPLICATION_ID comes with the invite link's documentation, written beside this.
    const known = VARIABLES.filter((n) => documented.has(n) || n !== 'DISCORD_APPLICATION_ID');
    expect([...documented].sort()).toEqual([...known].sort());
  });
});
