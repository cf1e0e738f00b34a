import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SESSION, runDemo } from '../src/demo/main.js';

describe('npm run demo', () => {
  beforeAll(async () => {
    // The demo starts the bot as its own process from the compiled program; build it first
    // (incremental, so this is quick when nothing changed).
    await promisify(execFile)(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { timeout: 180_000 });
  }, 200_000);

  it('plays the whole session and exits 0 when every step got its answer', async () => {
    const lines: string[] = [];
    const code = await runDemo((line) => void lines.push(line));
    const transcript = lines.join('\n');
    expect(transcript).toContain('Part 1');
    expect(transcript).toContain('Part 2');
    expect(transcript).toMatch(/astrid used \/help/);
    expect(transcript).toContain('Kommandona svarar från Eventor');
    expect(transcript).not.toContain('NO ANSWER');
    // Each command of the session, in English and Swedish, got a reply with real content.
    expect(transcript).toMatch(/astrid used \/events/);
    expect(transcript).toContain('Startlista');
    expect(transcript).toContain('Sträcka');
    expect(transcript).toContain(`${DEMO_SESSION.length} of ${DEMO_SESSION.length} commands answered`);
    // Part 3 (its content is checked in demo-scheduler.test.ts): the feeds through a race weekend.
    expect(transcript).toContain('Part 3');
    expect(transcript).toContain('kassoren used /feeds on kind: results channel: #resultat');
    expect(transcript).toMatch(/#resultat, the bot edited its post of/);
    expect(transcript).toContain('every expected post appeared, once');
    expect(transcript).not.toContain('FAILED');
    expect(code).toBe(0);
  }, 240_000);
});
