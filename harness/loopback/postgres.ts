import { type ChildProcessByStdio, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import pg from 'pg';

/**
 * A throwaway PostgreSQL on loopback: Debian's server binaries run in a temporary folder on a free
 * 127.0.0.1 port, as an unprivileged user (PostgreSQL refuses to run as root), with durability off.
 * The tests (test/support/postgres.ts) and `npm run soak` start one; nothing of the bot does.
 */

export interface Postgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: trust authentication, loopback only. */
  url: string;
  /** The server's data folder (inside the temporary folder `stop()` removes). */
  dataDir: string;
  /** Shuts the server down (fast shutdown, then SIGKILL) and removes its folder. Safe to call twice. */
  stop(): Promise<void>;
}

/** PostgreSQL is not installed here, or did not start: the message says why in one sentence. */
export class PostgresUnavailable extends Error {}

export const PORT_ATTEMPTS = 5;
export const INITDB_TIMEOUT_MS = 60_000;
export const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 10_000;

/** The folder holding `initdb` and `postgres`: on PATH, else Debian's newest /usr/lib/postgresql/<n>/bin. */
export function postgresBinaries(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const initdb = path.join(dir, 'initdb');
    if (!existsSync(initdb)) continue;
    // Debian links initdb onto PATH from its versioned folder; postgres lives beside the real file.
    const real = path.dirname(realpathSync(initdb));
    if (existsSync(path.join(real, 'postgres'))) return real;
  }
  const debian = '/usr/lib/postgresql';
  if (!existsSync(debian)) return null;
  const versions = readdirSync(debian)
    .filter((v) => /^\d+$/.test(v) && existsSync(path.join(debian, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  const [newest] = versions;
  return newest === undefined ? null : path.join(debian, newest, 'bin');
}

/** As root: the `postgres` user's ids from /etc/passwd. Otherwise this process's own user runs the server. */
function serverUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  if (!line) throw new PostgresUnavailable('running as root and there is no unprivileged `postgres` user to run it');
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

/** A port free on 127.0.0.1 a moment ago: the server cannot take port 0, so one is bound briefly and released. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function lastLines(text: string, count = 2): string {
  return text.trim().split('\n').slice(-count).join(' / ');
}

type Server = ChildProcessByStdio<null, Readable, Readable>;

/** Starts the server on `port`; resolves once it says it accepts connections, or with why it did not. */
function launch(
  bin: string,
  dataDir: string,
  port: number,
  user: { uid: number; gid: number } | null,
): Promise<{ child: Server } | { failed: string; portTaken: boolean }> {
  const child = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      // No Unix socket: it is reached over TCP only, and Debian's default folder may be absent.
      '-c',
      'unix_socket_directories=',
      // A throwaway database: durability costs time and buys nothing here.
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      // Small, because several test files, the soak's bots and other work share two cores.
      '-c',
      'shared_buffers=16MB',
      '-c',
      'max_connections=40',
      '-c',
      'lc_messages=C',
    ],
    {
      cwd: path.dirname(dataDir),
      env: { PATH: process.env.PATH, LC_ALL: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
    },
  );
  let log = '';
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish({ failed: `it did not accept connections within ${START_TIMEOUT_MS / 1000} s`, portTaken: false });
    }, START_TIMEOUT_MS);
    const finish = (result: { child: Server } | { failed: string; portTaken: boolean }) => {
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stderr.removeAllListeners('data');
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      // Keep draining its output so a chatty server never blocks on a full pipe.
      child.stdout.resume();
      child.stderr.resume();
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('database system is ready to accept connections')) finish({ child });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('error', (error) => finish({ failed: error.message, portTaken: false }));
    child.once('exit', () =>
      finish({ failed: lastLines(log) || 'it exited at once', portTaken: /already in use/i.test(log) }),
    );
  });
}

async function shutdown(child: Server): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // SIGINT is PostgreSQL's fast shutdown: it ends the sessions, checkpoints and exits.
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Makes a temporary folder, runs `initdb` there (trust on loopback, no fsync) and starts the server
 * on a free loopback port, retrying a few ports when another process took the one picked. Throws
 * {@link PostgresUnavailable} with one clear sentence when it cannot; the folder is removed then too.
 * `binaries` replaces the folder {@link postgresBinaries} finds (tests of the harness use stand-ins).
 */
export async function startPostgres(options: { binaries?: string } = {}): Promise<Postgres> {
  const bin = options.binaries ?? postgresBinaries();
  if (!bin) {
    throw new PostgresUnavailable(
      'initdb was not found on PATH or in /usr/lib/postgresql/*/bin; Debian: apt-get install postgresql',
    );
  }
  const user = serverUser();
  const root = await mkdtemp(path.join(tmpdir(), 'eventor-bot-pg-'));
  const dataDir = path.join(root, 'data');
  let child: Server | null = null;
  const removeAll = () => rm(root, { recursive: true, force: true });
  // Should the process end without stop(), the server must not outlive it.
  const onExit = () => {
    child?.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  try {
    if (user) await chown(root, user.uid, user.gid);
    await chmod(root, 0o700);
    await new Promise<void>((resolve, reject) => {
      execFile(
        path.join(bin, 'initdb'),
        ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions'],
        { cwd: root, env: { PATH: process.env.PATH, LC_ALL: 'C' }, timeout: INITDB_TIMEOUT_MS, ...(user ?? {}) },
        (error, _stdout, stderr) =>
          error ? reject(new PostgresUnavailable(`initdb failed: ${lastLines(stderr) || error.message}`)) : resolve(),
      );
    });
    let why = '';
    for (let attempt = 1; attempt <= PORT_ATTEMPTS; attempt++) {
      const port = await freePort();
      const started = await launch(bin, dataDir, port, user);
      if ('child' in started) {
        child = started.child;
        const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
        await checkItIsOurs(url, dataDir);
        let stopped: Promise<void> | null = null;
        return {
          url,
          dataDir,
          stop: () =>
            (stopped ??= (async () => {
              if (child) await shutdown(child);
              await removeAll();
              process.removeListener('exit', onExit);
            })()),
        };
      }
      why = started.failed;
      if (!started.portTaken) break;
    }
    throw new PostgresUnavailable(`the server did not start: ${why}`);
  } catch (error) {
    if (child) await shutdown(child);
    await removeAll();
    process.removeListener('exit', onExit);
    if (error instanceof PostgresUnavailable) throw error;
    throw new PostgresUnavailable(`it could not be started: ${(error as Error).message}`);
  }
}

/** The port was free a moment ago; make sure the server answering there is the one just started. */
async function checkItIsOurs(url: string, dataDir: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ dir: string }>("SELECT current_setting('data_directory') AS dir");
    if (rows[0]?.dir !== dataDir) throw new Error(`another server answers on its port (${rows[0]?.dir})`);
  } finally {
    await client.end();
  }
}
