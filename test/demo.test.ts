import { describe, expect, it } from 'vitest';
import { DEMO_SESSION, runDemo } from '../src/demo/main.js';

describe('npm run demo', () => {
  // The demo starts the bot as its own process from the compiled program: test/support/build.ts
  // (vitest's global setup) compiled it before any test file ran.
  it('plays the whole session and exits 0 when every step got its answer', async () => {
    const lines: string[] = [];
    const code = await runDemo((line) => void lines.push(line));
    const transcript = lines.join('\n');
    expect(transcript).toContain('Part 1');
    expect(transcript).toContain('Part 2');
    expect(transcript).toMatch(/astrid used \/help/);
    expect(transcript).toContain('Kommandona hämtar svar från Eventor');
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
