import { describe, expect, it } from 'vitest';
import { DEMO_SESSION, runDemo } from '../../src/demo/main.js';
import type { SandboxDataset } from '../../src/sandbox/eventor/dataset.js';

describe('npm run demo', () => {
  // The demo starts the bot as its own process from the compiled program: test/support/build.ts
  // (vitest's global setup) compiled it before any test file ran.
  it('plays the whole session and exits 0 when every step got its answer', async () => {
    const lines: string[] = [];
    const datasets = new Map<number, SandboxDataset>();
    const code = await runDemo((line) => void lines.push(line), {
      onDataset: (part, dataset) => void datasets.set(part, dataset),
    });
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
    // One federation in all three parts: every event has the same date (and races) in each.
    expect([...datasets.keys()].sort()).toEqual([1, 2, 3]);
    const dates = (dataset: SandboxDataset): Map<string, string> =>
      new Map(
        dataset.events.map((ev) => [ev.id, [ev.event.start, ...ev.event.races.map((race) => race.date)].join(' ')]),
      );
    const first = dates(datasets.get(1)!);
    expect(first.size).toBeGreaterThan(10);
    for (const part of [2, 3]) expect(dates(datasets.get(part)!), `part ${part}`).toEqual(first);
  }, 240_000);
});
