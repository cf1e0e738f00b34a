import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { likelyMeant, repeatedVariablesWarning, VARIABLES } from '../../src/config/variables.js';
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

describe('.env mistakes an operator makes: said as they are, never with a value', () => {
  let setup: OperatorSetup;
  beforeAll(async () => {
    setup = await startOperatorSetup('env-mistakes');
  });
  afterAll(async () => {
    await setup?.close();
  });

  it('a .env this user may not read (root’s, 0600): whose it is and who runs, not "no such file" (exit 2)', async (ctx) => {
    if (process.getuid?.() !== 0) {
      ctx.skip('needs root, to run the bot as another user (nobody)');
      return;
    }
    const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-env-owner-'));
    try {
      await chmod(dir, 0o755);
      await writeFile(path.join(dir, '.env'), `${dotEnv(setup.env)}\n`, { mode: 0o600 });
      const { code, stderr } = await runProgram(['start'], { cwd: dir, uid: 65534, gid: 65534 });
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([
        `Configuration problem: cannot read ${path.join(dir, '.env')}: no permission to read it: it belongs to root with mode 0600, ` +
          'and this process runs as nobody (uid 65534); make it readable by that user (chown), or run the bot as its owner (see .env.example)',
      ]);
      expect(stderr).not.toContain('ENOENT');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the sandbox’s variables pasted above a copy of .env.example: the template’s empty lines win, and the warning says which and where', async () => {
    const dir = await mkdtemp(path.join(setup.dir, 'pasted-'));
    const pasted = dotEnv({ ...setup.env, DATABASE_PATH: path.join(setup.dir, 'pasted.sqlite') });
    const template = readFileSync('.env.example', 'utf8');
    await writeFile(path.join(dir, '.env'), `${pasted}\n${template}`);
    const line = (name: string, text: string, from = 0): number =>
      text.split('\n').findIndex((l, i) => i >= from && l.startsWith(`${name}=`)) + 1;
    const pastedLines = pasted.split('\n').length;
    const { code, stderr } = await runProgram(['start'], { cwd: dir });
    expect(code).toBe(2);
    expect(stderr).toContain('DISCORD_TOKEN must be set');
    const warnings = stderr.split('\n').filter((l) => l.includes('more than once'));
    expect(warnings).toEqual([
      'eventor-bot start: warning: variables set more than once in .env, the last line of each wins: ' +
        `DISCORD_TOKEN on lines ${line('DISCORD_TOKEN', pasted)}, ${pastedLines + line('DISCORD_TOKEN', template)} (the last, empty, wins: DISCORD_TOKEN is empty); ` +
        `EVENTOR_API_KEY on lines ${line('EVENTOR_API_KEY', pasted)}, ${pastedLines + line('EVENTOR_API_KEY', template)} (the last, empty, wins: EVENTOR_API_KEY is empty); ` +
        `SECRET_KEY on lines ${line('SECRET_KEY', pasted)}, ${pastedLines + line('SECRET_KEY', template)} (the last, empty, wins: SECRET_KEY is empty)`,
    ]);
    for (const secret of [setup.discord.token, setup.eventor.apiKey, setup.secretKey])
      expect(stderr).not.toContain(secret);
  });

  it('repeated names: a value over several quoted lines is one assignment; names only, in the order first set', () => {
    expect(repeatedVariablesWarning('A=1\nB=2\n')).toBeNull();
    expect(repeatedVariablesWarning('A="one\nA=inside the quotes\n"\nA=2\nexport B=x\nB=\n')).toBe(
      'variables set more than once in .env, the last line of each wins: A on lines 1, 4; B on lines 5, 6 (the last, empty, wins: B is empty)',
    );
  });
});
