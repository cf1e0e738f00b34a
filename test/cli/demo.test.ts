import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { MASKED } from '../../harness/demo/bot-session.js';
import { DEMO_SESSION, runDemo } from '../../harness/demo/main.js';
import type { SandboxDataset } from '../../harness/sandbox/eventor/dataset.js';
import { testNow } from '../support/clock.js';

describe('npm run demo', () => {
  // The demo starts the bot as its own process from the compiled program: test/support/build.ts
  // (vitest's global setup) compiled it before any test file ran.
  it('plays the whole session and exits 0 when every step got its answer', async () => {
    const lines: string[] = [];
    // Each part's event dates as the part starts (part 3 then moves a race in its sandbox on purpose).
    const dates = (dataset: SandboxDataset): Map<string, string> =>
      new Map(
        dataset.events.map((ev) => [ev.id, [ev.event.start, ...ev.event.races.map((race) => race.date)].join(' ')]),
      );
    const datasets = new Map<number, SandboxDataset>();
    const startDates = new Map<number, Map<string, string>>();
    const pictures = path.join(await mkdtemp(path.join(tmpdir(), 'eventor-bot-demo-test-')), 'pictures');
    const code = await runDemo((line) => void lines.push(line), {
      // The test instant, not today: the same races, members and deadlines whatever the day.
      startsAt: testNow(),
      onDataset: (part, dataset) => {
        datasets.set(part, dataset);
        startDates.set(part, dates(dataset));
      },
      picturesDir: pictures,
    });
    const transcript = lines.join('\n');
    expect(transcript).toContain('Part 1');
    expect(transcript).toContain('Part 2');
    // The member who links her account goes by her first name (as her Eventor person) on Discord.
    const member = /\n── (\w+) used \/link eventor/.exec(transcript)?.[1] ?? 'no member linked';
    expect(transcript).toContain(`${member} used /help`);
    expect(transcript).toContain('Kommandona hämtar svar från Eventor');
    expect(transcript).not.toContain('NO ANSWER');
    // Each command of the session, in English and Swedish, got a reply with real content.
    expect(transcript).toContain(`${member} used /events`);
    expect(transcript).toContain('Startlista');
    expect(transcript).toContain('Sträcka');
    expect(transcript).toContain(`${DEMO_SESSION.length} of ${DEMO_SESSION.length} commands answered`);
    // The session starts with the admin connecting the server and a member linking her account,
    // through their forms, before anyone queries.
    const ds = datasets.get(2)!;
    const at = (text: string | RegExp): number =>
      typeof text === 'string' ? transcript.indexOf(text) : transcript.search(text);
    expect(at(/kassoren used \/setup eventor base_url: http:\/\/127\.0\.0\.1:\d+/)).toBeGreaterThan(0);
    expect(transcript).toContain(`kassoren filled in the form "API-nyckel till Eventor" (API-nyckel: ${MASKED})`);
    expect(transcript).toContain(`Kopplad till ${ds.homeClub.name}`);
    expect(transcript).toContain('kassoren used /setup channel kind: results channel: #resultat');
    expect(transcript).toMatch(
      new RegExp(
        `${member} filled in the form "Link to Eventor" \\(Eventor user name: [\\w.]+; Eventor password: ${MASKED}\\)`,
      ),
    );
    expect(at(`${member} filled in the form`)).toBeLessThan(at(`${member} used /help`));
    expect(at('kassoren used /setup channel')).toBeLessThan(at(`${member} used /link`));
    expect(transcript).toContain('Linked: your Discord account is now tied to');
    // What members do besides commands: a button, a menu, Discord's suggestions, a follow-up.
    const events = transcript.slice(at(`${member} used /events`));
    expect(events).toMatch(/Page 1 of 2 · \d+ events\n.*\n\s*\[Previous\] \(disabled\) \[Next\]/);
    expect(events).toMatch(new RegExp(`── ${member} clicked \\[Next\\] under the answer[^\\n]*\\n[^]*?Page 2 of 2`));
    expect(events).toMatch(
      new RegExp(
        `── ${member} picked "[^"]+" in the menu "Pick an event for details" under the answer.*\\n.*only you can see this`,
      ),
    );
    expect(transcript).toMatch(/── sven types "\w+" into \/results member: Discord suggests "[^"]+ \(\d{4}\)"/);
    expect(transcript).toMatch(
      /── sven used \/results event: \d+ member: [^\n]+ \(\d{4}\) {2}\[sv-SE\]\n.*\n\s*\n\s*> \*\*Resultat: /,
    );
    expect(transcript).toContain(
      'sven used /event event: 999999  [sv-SE]\n   (the bot\'s public "thinking…" is gone; a follow-up:)\n   eventor-bot (BOT, only you can see this):\n   Jag hittade inte den tävlingen i Eventor.',
    );
    // No secret typed into a form, of anyone, is ever printed.
    for (const club of ds.clubs) expect(transcript.includes(club.apiKey), club.name).toBe(false);
    for (const person of ds.persons) expect(transcript.includes(person.password), person.username).toBe(false);
    // Part 3 (its content is checked in demo-scheduler.test.ts): the feeds through a race weekend.
    expect(transcript).toContain('Part 3');
    expect(transcript).toContain('kassoren used /feeds on kind: results channel: #resultat');
    expect(transcript).toMatch(/#resultat, the bot edited its post of/);
    expect(transcript).toContain('every expected post appeared, once');
    expect(transcript).not.toContain('FAILED');
    expect(code).toBe(0);
    // One federation in all three parts: every event has the same date (and races) in each.
    expect([...datasets.keys()].sort()).toEqual([1, 2, 3]);
    const first = startDates.get(1)!;
    expect(first.size).toBeGreaterThan(10);
    for (const part of [2, 3]) expect(startDates.get(part), `part ${part}`).toEqual(first);

    // The pictures it showed are in the folder it named, each named in the transcript where it appeared.
    try {
      expect(transcript).toContain(`Pictures the bot attaches are written to ${pictures};`);
      const saved = [...transcript.matchAll(/\[picture (\S+) saved as (\S+?)(?:: "([^"]*)")?\]/g)].map((m) => ({
        name: m[1]!,
        file: m[2]!,
        alt: m[3] ?? '',
      }));
      expect(saved.length).toBeGreaterThan(0);
      expect(readdirSync(pictures).sort()).toEqual(saved.map((s) => path.basename(s.file)).sort());
      expect(transcript).toContain(`${saved.length} pictures written to ${pictures}.`);
      for (const { file, alt } of saved) {
        expect(path.dirname(file)).toBe(pictures);
        expect(existsSync(file), file).toBe(true);
        const image = await loadImage(readFileSync(file));
        expect(image.width, file).toBeGreaterThan(400);
        expect(alt, `${file} has alt text`).not.toBe('');
      }
      // /splits: the class graph and her lost-per-leg bars, named right under the answer.
      const splits = transcript.slice(at(`${member} used /splits`));
      const answer = splits.slice(0, splits.indexOf('\n── ', 1));
      expect(answer).toContain('Split times:');
      expect(answer).toMatch(/\[picture splits\.png saved as \S+part2-\d+-splits-splits\.png: "/);
      expect(answer).toMatch(/\[picture lost-per-leg\.png saved as \S+part2-\d+-splits-lost-per-leg\.png: "/);
      // Part 3: the split graphs in the results thread, one per class with club runners.
      const thread = saved.filter((s) => path.basename(s.file).startsWith('part3-thread-'));
      expect(thread.length).toBeGreaterThan(0);
      for (const { alt } of thread) expect(alt).toMatch(/^Splits graph of /);
    } finally {
      await rm(path.dirname(pictures), { recursive: true, force: true });
    }
  }, 240_000);
});
