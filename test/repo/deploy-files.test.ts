import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT_LASTING } from '../../src/cli/exit-codes.js';
import { CLI_COMMANDS } from '../../src/cli/main.js';

/**
 * What can be checked of deploy/ without systemd running the unit or Docker building the image
 * (neither is possible on CI): the command they run exists, the Node version matches the
 * package's, every variable they set is one .env.example documents, and systemd accepts the unit.
 */
const read = (file: string): string => readFileSync(path.resolve(file), 'utf8');
const unit = read('deploy/eventor-bot.service');
const dockerfile = read('deploy/Dockerfile');
const compose = read('deploy/compose.yaml');
const composeAtScale = read('deploy/compose.postgres.yaml');
const template = read('.env.example');
const pkg = JSON.parse(read('package.json')) as { engines: { node: string }; bin: Record<string, string> };

/** The variables .env.example documents, set or commented out (`NAME=` or `#NAME=`). */
const documented = new Set([...template.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));

/** `key=value` lines of a unit's section (the last one wins, as in systemd, except for lists). */
function unitLines(key: string): string[] {
  return [...unit.matchAll(new RegExp(`^${key}=(.*)$`, 'gm'))].map((m) => m[1]!.trim());
}

describe('deploy/: the systemd unit, the Dockerfile and compose.yaml', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('run the program directly (node bin/eventor-bot.js start), a command that exists', () => {
    expect(pkg.bin['eventor-bot']).toBe('bin/eventor-bot.js');
    expect(existsSync('bin/eventor-bot.js')).toBe(true);
    expect(CLI_COMMANDS.start?.run).toBeDefined();
    expect(unitLines('ExecStart')).toEqual(['/usr/bin/node /opt/eventor-bot/bin/eventor-bot.js start']);
    expect(unitLines('WorkingDirectory')).toEqual(['/opt/eventor-bot']);
    expect(dockerfile).toMatch(/^CMD \["node", "bin\/eventor-bot\.js", "start"\]$/m);
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/bin \.\/bin$/m);
    expect(dockerfile).toMatch(/^STOPSIGNAL SIGTERM$/m);
  });

  it("the Dockerfile's Node is a supported LTS line that package.json's engines allows", () => {
    // The LTS lines in support (nodejs.org/about/previous-releases): 22 until April 2027, 24 until
    // April 2028. Node 20's support ended in April 2026. A line leaves this list when its support ends.
    const SUPPORTED_LTS = ['22', '24'];
    const minimum = Number(/^>=\s*(\d+)\./.exec(pkg.engines.node)?.[1]);
    const froms = [...dockerfile.matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!);
    expect(froms.length).toBeGreaterThanOrEqual(2);
    const majors = froms.map((image) => /^node:(\d+)-/.exec(image)?.[1]);
    // Built and run on the same Node: better-sqlite3's binary is built for the Node that builds it.
    expect(new Set(majors).size).toBe(1);
    expect(SUPPORTED_LTS).toContain(majors[0]);
    expect(Number(majors[0])).toBeGreaterThanOrEqual(minimum);
    // The guide names the image the Dockerfile runs on.
    expect(read('docs/operators.md')).toContain(`\`${froms.at(-1)}\``);
  });

  it('the image and both compose files check health with `eventor-bot health`, a command that exists', () => {
    expect(CLI_COMMANDS.health?.run).toBeDefined();
    expect(dockerfile).toMatch(
      /^HEALTHCHECK --interval=30s --timeout=10s --start-period=\d+m --retries=\d+ CMD \["node", "bin\/eventor-bot\.js", "health"\]$/m,
    );
    expect(dockerfile.indexOf('HEALTHCHECK')).toBeGreaterThan(dockerfile.indexOf('USER node'));
    for (const file of [compose, composeAtScale]) {
      expect(file).toMatch(/^ {2,4}healthcheck:\n\s+test: \['CMD', 'node', 'bin\/eventor-bot\.js', 'health'\]$/m);
      // Longer than the heartbeat's staleness (90 s) would hide a dead bot; shorter would flap.
      expect(file).toMatch(/^\s+interval: 30s$/m);
    }
  });

  it('every variable they set is in .env.example', () => {
    const inUnit = unitLines('Environment').flatMap((line) =>
      [...line.matchAll(/([A-Z][A-Z0-9_]*)=/g)].map((m) => m[1]!),
    );
    const inDocker = [...dockerfile.matchAll(/(?:^ENV\s+|^\s+)([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
    // Keys under `environment:` and any ${NAME} interpolation.
    const environment = /^ {4}environment:\n((?: {6}.*\n)+)/m.exec(compose)?.[1] ?? '';
    const inCompose = [
      ...[...environment.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm)].map((m) => m[1]!),
      ...[...compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]!),
    ];
    expect(inUnit).toContain('DATABASE_PATH');
    expect(inDocker).toContain('DATABASE_PATH');
    expect(inCompose).toContain('DATABASE_PATH');
    const unknown = [...inUnit, ...inDocker, ...inCompose].filter(
      (name) => name !== 'NODE_ENV' && !documented.has(name),
    );
    expect(unknown).toEqual([]);
  });

  it('compose.postgres.yaml: each shard run once, all on the one PostgreSQL, with documented variables', () => {
    const bots = [...composeAtScale.matchAll(/^ {2}(bot-\d+):\n((?: {4}.*\n)+)/gm)].map((m) => m[2]!);
    expect(bots.length).toBeGreaterThanOrEqual(2);
    const value = (service: string, name: string) => new RegExp(`^ {6}${name}: (.*)$`, 'm').exec(service)?.[1];
    const shards = bots.map((service) => Number(value(service, 'SHARDS')?.replaceAll("'", '')));
    expect(shards.toSorted((a, b) => a - b)).toEqual(bots.map((_, i) => i));
    for (const service of bots) {
      expect(value(service, 'SHARD_COUNT')).toBe(`'${bots.length}'`);
      // The password is never in the URL (an @, : or / would break it): PostgreSQL's driver takes PGPASSWORD.
      expect(value(service, 'DATABASE_URL')).toBe('postgres://eventor-bot@postgres:5432/eventor');
      expect(value(service, 'PGPASSWORD')).toBe('${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}');
      for (const [, name] of service.matchAll(/^ {6}([A-Z][A-Z0-9_]*):/gm))
        expect(documented.has(name!), name).toBe(true);
    }
    // The database's own settings are PostgreSQL's image's, not the bot's.
    expect(composeAtScale).toMatch(/^ {6}POSTGRES_PASSWORD: \$\{POSTGRES_PASSWORD:\?/m);
  });

  it("the database is where the state lives: the unit's StateDirectory, the image's volume", () => {
    expect(unitLines('StateDirectory')).toEqual(['eventor-bot']);
    expect(unitLines('Environment')).toContain('DATABASE_PATH=/var/lib/eventor-bot/eventor-bot.sqlite');
    expect(dockerfile).toMatch(/DATABASE_PATH=\/data\/eventor-bot\.sqlite/);
    expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(compose).toMatch(/^ {6}- eventor-bot-data:\/data$/m);
    expect(compose).toMatch(/^ {4}env_file: \.\.\/\.env$/m);
    expect(compose).toMatch(/^ {4}restart: unless-stopped$/m);
    expect(compose).toMatch(/^ {4}stop_grace_period: \d+s$/m);
    // Stopping takes up to 10 s: systemd and Compose wait longer than that before killing.
    const stopSeconds = Number(/^(\d+)s$/.exec(unitLines('TimeoutStopSec')[0] ?? '')?.[1]);
    expect(stopSeconds).toBeGreaterThan(10);
    expect(Number(/stop_grace_period: (\d+)s/.exec(compose)?.[1])).toBeGreaterThan(10);
    expect(unitLines('KillSignal')).toEqual(['SIGTERM']);
    expect(unitLines('Restart')).toEqual(['on-failure']);
    // Not restarted after a mistake a restart cannot fix (a token Discord refuses, a damaged database).
    expect(unitLines('RestartPreventExitStatus')).toEqual([String(EXIT_LASTING)]);
  });

  it('the Dockerfile and the unit run the bot as an unprivileged user', () => {
    expect(unitLines('DynamicUser')).toEqual(['yes']);
    for (const key of ['NoNewPrivileges', 'ProtectHome', 'PrivateTmp']) expect(unitLines(key)).toEqual(['yes']);
    expect(unitLines('ProtectSystem')).toEqual(['strict']);
    const users = [...dockerfile.matchAll(/^USER (\S+)$/gm)].map((m) => m[1]);
    expect(users).toEqual(['node']);
    expect(dockerfile.indexOf('USER node')).toBeLessThan(dockerfile.indexOf('CMD '));
  });

  it('systemd-analyze verify accepts the unit, without a warning', async (ctx) => {
    const tool = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((file) => existsSync(file));
    if (!tool) {
      ctx.skip('systemd-analyze is not installed here (Debian: apt-get install systemd)');
      return;
    }
    // A copy whose paths exist on this machine: this Node, this checkout, an empty environment file
    // (verify checks that ExecStart's program is there; the unit's own paths are the installed ones).
    const dir = mkdtempSync(path.join(tmpdir(), 'eventor-bot-unit-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, 'env'), '');
    const copy = unit
      .replaceAll('/usr/bin/node', process.execPath)
      .replaceAll('/opt/eventor-bot', path.resolve('.'))
      .replaceAll('/etc/eventor-bot/env', path.join(dir, 'env'));
    const file = path.join(dir, 'eventor-bot.service');
    writeFileSync(file, copy);
    const { stdout, stderr } = await promisify(execFile)(tool, ['verify', file], { timeout: 60_000 });
    // Unknown keys and unreadable values are only warnings (exit 0): none is allowed.
    expect(`${stdout}${stderr}`.trim()).toBe('');
  });
});
