import { type ChildProcessByStdio, spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { NEEDS_POSTGRES, usePostgres } from '../support/postgres.js';
import { testSecrets } from '../support/stores.js';

/**
 * The ledger's claim across real processes on one PostgreSQL: three processes of the built program
 * claim the same items at the same moment, and each item is won by exactly one of them.
 */

const RACER = path.resolve('test/support/claim-racer.js');
const PROCESSES = 3;
const ITEMS = 300;
const TIMEOUT_MS = 60_000;

type Racer = ChildProcessByStdio<Writable, Readable, Readable>;

/** Resolves with the next line `child` prints (rejects when it exits or is too slow). */
function nextLine(child: Racer, buffer: { text: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error('a racer printed nothing in time')), TIMEOUT_MS);
    const check = () => {
      const end = buffer.text.indexOf('\n');
      if (end === -1) return;
      const line = buffer.text.slice(0, end);
      buffer.text = buffer.text.slice(end + 1);
      finish(null, line);
    };
    const onData = (chunk: Buffer) => {
      buffer.text += chunk.toString();
      check();
    };
    const onExit = (code: number | null) => finish(new Error(`a racer exited with ${code} before its line`));
    const finish = (error: Error | null, line?: string) => {
      clearTimeout(timer);
      child.stdout.removeListener('data', onData);
      child.removeListener('exit', onExit);
      if (error) reject(error);
      else resolve(line!);
    };
    child.stdout.on('data', onData);
    child.once('exit', onExit);
    check();
  });
}

describe(`the ledger claim across processes ${NEEDS_POSTGRES}`, () => {
  const server = usePostgres();

  it(`${PROCESSES} processes claiming ${ITEMS} items at once: each item won exactly once`, async () => {
    const admin = new pg.Client({ connectionString: server().url });
    await admin.connect();
    await admin.query('CREATE DATABASE racing');
    await admin.end();
    const url = new URL(server().url);
    url.pathname = '/racing';
    await (await openPostgresStore(url.toString(), testSecrets())).close();

    const racers = Array.from({ length: PROCESSES }, (_, i) =>
      spawn(process.execPath, [RACER, url.toString(), `host:${i}:racer`, String(ITEMS)], {
        stdio: ['pipe', 'pipe', 'pipe'],
      }),
    );
    const buffers = racers.map(() => ({ text: '' }));
    try {
      expect(await Promise.all(racers.map((r, i) => nextLine(r, buffers[i]!)))).toEqual(racers.map(() => 'ready'));
      // All connected: "go" to every one at once.
      for (const racer of racers) racer.stdin.write('go\n');
      const won = (await Promise.all(racers.map((r, i) => nextLine(r, buffers[i]!)))).map(
        (line) => JSON.parse(line) as number[],
      );
      const all = won.flat().sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: ITEMS }, (_, i) => i));
      // In the same order from the same moment, all of them reach each item together: the first
      // one there keeps winning, and the others lose every item to it (this is the most contended
      // race; with the claim's check and write apart, items are won twice).
      expect(won.map((w) => w.length).sort((a, b) => b - a)[0]).toBeGreaterThan(0);
    } finally {
      for (const racer of racers) if (racer.exitCode === null) racer.kill('SIGKILL');
    }
  });
});
