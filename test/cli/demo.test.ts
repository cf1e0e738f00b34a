import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadImage } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MASKED } from '../../harness/demo/bot-session.js';
import { DEMO_SESSION, runDemo } from '../../harness/demo/main.js';
import { lineDiff, type SchedulerSessionResult } from '../../harness/demo/scheduler-session.js';
import { SANDBOX_TIME_ZONE, type SandboxDataset } from '../../harness/sandbox/eventor/dataset.js';
import { formatElapsed } from '../../src/eventor/time.js';
import { addDays, localToday } from '../../src/time/days.js';
import { localToInstant } from '../../src/time/zones.js';
import { testNow } from '../support/clock.js';

/** `text` as a regular expression matching itself. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The club's entries a reminder post names ("12 from the club have entered so far"). */
function clubCount(text: string): number {
  return Number(/(\d+) from the club (?:have|has) entered so far/.exec(text)?.[1]);
}

/** How many times `part` occurs in `text`. */
function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

// The demo is played once for this file: its whole transcript is checked first, then part 3's race
// weekend on its own (the result and lines the demo gives through `onSchedulerSession`), so that
// `npm test` plays the weekend once rather than again by itself.
describe('npm run demo', () => {
  let code: number;
  let lines: string[];
  let pictures: string;
  const datasets = new Map<number, SandboxDataset>();
  const startDates = new Map<number, Map<string, string>>();
  let part3: { result: SchedulerSessionResult; lines: readonly string[] } | undefined;

  // The demo starts the bot as its own process from the compiled program: test/support/build.ts
  // (vitest's global setup) compiled it before any test file ran.
  beforeAll(async () => {
    lines = [];
    // Each part's event dates as the part starts (part 3 then moves a race in its sandbox on purpose).
    const dates = (dataset: SandboxDataset): Map<string, string> =>
      new Map(
        dataset.events.map((ev) => [ev.id, [ev.event.start, ...ev.event.races.map((race) => race.date)].join(' ')]),
      );
    pictures = path.join(await mkdtemp(path.join(tmpdir(), 'eventor-bot-demo-test-')), 'pictures');
    code = await runDemo((line) => void lines.push(line), {
      // The test instant, not today: the same races, members and deadlines whatever the day.
      startsAt: testNow(),
      onDataset: (part, dataset) => {
        datasets.set(part, dataset);
        startDates.set(part, dates(dataset));
      },
      picturesDir: pictures,
      onSchedulerSession: (result, written) => void (part3 = { result, lines: written }),
    });
  }, 240_000);

  afterAll(async () => {
    if (pictures) await rm(path.dirname(pictures), { recursive: true, force: true });
  });

  it('plays the whole session and exits 0 when every step got its answer', async () => {
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
    // Part 3 (its content is checked below): the feeds through a race weekend.
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
  });

  describe('part 3: automatic posts through a race weekend', () => {
    let result: SchedulerSessionResult;
    let transcript: string;

    beforeAll(() => {
      if (!part3) throw new Error('part 3 gave no result (its FAILED line is in the transcript)');
      result = part3.result;
      transcript = part3.lines.join('\n');
    });

    it('sees everything it expected, within its bounded walk', () => {
      expect(result.problems).toEqual([]);
      expect(transcript).not.toContain('PROBLEM');
      expect(result.ticks).toBeGreaterThan(100);
      expect(result.ticks).toBeLessThan(3_000);
    });

    it('after the weekend the bot meets a deleted post and a refused permission, as Discord answers them', () => {
      const after = transcript.slice(transcript.indexOf('After the weekend: Discord refuses the bot.'));
      expect(after).not.toBe('');
      const at = (text: string): number => after.indexOf(text);
      // Discord's own answers, in order: the edit of the deleted post, then the post anew without the permission.
      expect(at('answers its edit of the deleted post: 404, 10008 Unknown Message')).toBeGreaterThan(0);
      expect(at('answers its post anew: 403, 50013 Missing Permissions')).toBeGreaterThan(
        at('answers its edit of the deleted post'),
      );
      // The admins are told in their channel, once, and again when it runs; the post comes back once.
      expect(occurrences(after, 'Automatic posts of club results are paused: the bot may not post in #resultat.')).toBe(
        1,
      );
      expect(at('Automatic posts of club results are running again.')).toBeGreaterThan(
        at('The owner gives the bot Send Messages in #resultat back.'),
      );
      expect(occurrences(after, '#resultat, a new post:')).toBe(1);
      expect(at('#resultat, a new post:')).toBeGreaterThan(at('running again'));
      const corrected = /corrects (.+)'s time in \S+ from [\d:]+ to ([\d:]+)\./.exec(after);
      expect(corrected).not.toBeNull();
      expect(after.slice(at('#resultat, a new post:'))).toContain(`**${corrected![1]}** · ${corrected![2]}`);
    });

    it('the admin turns the feeds on with /feeds and the bot answers', () => {
      for (const channel of ['anmälan', 'startlistor', 'resultat', 'veckan']) {
        expect(transcript).toMatch(new RegExp(`kassoren used /feeds on kind: \\w+ channel: #${channel}`));
        expect(transcript).toContain(`posted in #${channel}`);
      }
      expect(transcript).toContain('kassoren used /feeds quiet from: 22 to: 7');
    });

    it('shows an entry-deadline reminder for the race with the club count and the login button', () => {
      const reminders = result.posts.filter((p) => p.kind === 'reminders' && p.text.includes(result.event.name));
      expect(reminders.length).toBeGreaterThanOrEqual(1);
      for (const reminder of reminders) {
        expect(reminder.text).toMatch(/\d+ from the club (have|has) entered so far/);
        expect(reminder.text).toContain('[Log in to Eventor]');
        expect(reminder.text).toMatch(/closes in \d+ (hours|days)/);
        // Edited only as more from the club enter: never without a new entrant, so not at all when
        // none enter while it is up (on some test instants one does, within hours).
        expect(clubCount(reminder.finalText)).toBeGreaterThanOrEqual(clubCount(reminder.text));
        expect(reminder.edits.length).toBeLessThanOrEqual(clubCount(reminder.finalText) - clubCount(reminder.text));
      }
    });

    it('shows the start list with the club start times, once, before the race', () => {
      const lists = result.posts.filter((p) => p.kind === 'startlists');
      expect(lists).toHaveLength(1);
      expect(lists[0]!.text).toContain(`The start list of **${result.event.name}** is out.`);
      expect(lists[0]!.text).toMatch(/`\d\d:\d\d` \S+/);
      expect(Date.parse(lists[0]!.at)).toBeLessThan(Date.parse(result.event.start));
      expect(lists[0]!.edits).toEqual([]);
    });

    it('shows the results post once, and its one edit after the correction with the new time', () => {
      const results = result.posts.filter((p) => p.kind === 'results');
      expect(results).toHaveLength(1);
      const post = results[0]!;
      expect(post.text).toContain(`Results: ${result.event.name}`);
      expect(Date.parse(post.at)).toBeGreaterThan(Date.parse(result.event.start));
      expect(result.correctedAt).not.toBeNull();
      expect(Date.parse(result.correctedAt!)).toBeGreaterThan(Date.parse(post.at));
      expect(post.edits).toHaveLength(1);
      expect(Date.parse(post.edits[0]!)).toBeGreaterThanOrEqual(Date.parse(result.correctedAt!));
      const { name, from, to } = result.correction!;
      // The edit as the transcript shows it: the old line gone, the corrected one in, first place now.
      expect(transcript).toContain('the bot edited its post of');
      expect(transcript).toMatch(new RegExp(`- > .*\\*\\*${name}\\*\\* · ${formatElapsed(from)}`));
      expect(transcript).toContain(`+ > 🥇 **${name}** · ${formatElapsed(to)}`);
      expect(post.text).not.toContain(`🥇 **${name}**`);
      expect(post.finalText).toContain(`🥇 **${name}** · ${formatElapsed(to)}`);
      expect(occurrences(transcript, '#resultat, the bot edited its post of')).toBe(1);
      // Reminders are edited too, as more from the club enter (the sandbox's entries grow with its
      // clock). Which reminders see an entrant come in depends on the test instant, so the sandbox
      // says: one whose club count grew at a daytime hour while it was up (before its deadline and
      // the walk's end) is edited, and the transcript shows its new count.
      const ds = datasets.get(3)!;
      const hour = new Intl.DateTimeFormat('en-GB', { timeZone: SANDBOX_TIME_ZONE, hour: '2-digit', hourCycle: 'h23' });
      const walkEnd = Date.parse(
        localToInstant(
          addDays(localToday(new Date(result.event.start), SANDBOX_TIME_ZONE), 2),
          '00:00',
          SANDBOX_TIME_ZONE,
        )!,
      );
      const grewWhileUp = (post: (typeof result.posts)[number]): boolean => {
        const ev = ds.events.find((e) => e.id === /\/Events\/Show\/(\d+)/.exec(post.text)?.[1]);
        if (!ev) return false;
        const club = (at: number): number =>
          ds.entriesAt(ev, new Date(at)).filter((e) => e.competitor?.organisation?.id === ds.homeClub.id).length;
        const posted = Date.parse(post.at);
        // Counted as the bot counts (else this reminder tells nothing here).
        if (club(posted) !== clubCount(post.text)) return false;
        const deadline = ev.event.entryDeadlines.map((d) => Date.parse(d)).find((d) => d > posted) ?? walkEnd;
        // Bounded: whole hours up to the walk's end, at most its ten days.
        for (let at = posted + 3_600_000; at < Math.min(deadline, walkEnd); at += 3_600_000) {
          const local = Number(hour.format(new Date(at)));
          if (local >= 7 && local < 22 && club(at) > clubCount(post.text)) return true;
        }
        return false;
      };
      const reminders = result.posts.filter((p) => p.kind === 'reminders');
      const grew = reminders.filter(grewWhileUp);
      for (const post of grew) expect(post.edits.length, post.text.split('\n')[0]).toBeGreaterThan(0);
      for (const edited of reminders.filter((p) => p.edits.length > 0))
        expect(transcript).toMatch(
          new RegExp(
            `#anmälan, the bot edited its post of[^\\n]*\\n(?:.*\\n){0,8}?\\s*\\+ > ${clubCount(edited.finalText)} from the club have entered so far\\.`,
          ),
        );
    });

    it("shows the weekly digest once, Thursday 18:00 of race week, with the race among the club's starts", () => {
      expect(transcript).toContain('kassoren used /feeds on kind: digest channel: #veckan');
      const digests = result.posts.filter((p) => p.kind === 'digest');
      expect(digests).toHaveLength(1);
      const digest = digests[0]!;
      expect(transcript).toMatch(/── \[Thu \d+ \w+, 18:00\] #veckan, a new post:/);
      expect(digest.text).toContain("📅 **The club's week**");
      expect(digest.text).toContain('**Starts in the coming days**');
      expect(digest.text).toContain(result.event.name);
      expect(Date.parse(digest.at)).toBeLessThan(Date.parse(result.event.start));
      expect(digest.edits).toEqual([]);
    });

    it("shows a member's /next before and after the draw, and her day-before reminder DM, once", () => {
      expect(transcript).toContain('kassoren used /admin link member: @astrid person:');
      expect(transcript).toContain('astrid used /notify on what: tomorrow');
      const asked = transcript.split('astrid used /next').slice(1);
      expect(asked).toHaveLength(2);
      expect(asked[0]).toContain(result.event.name);
      expect(asked[0]).toContain('start time not out yet');
      expect(asked[1]!.split('\n── ')[0]).toMatch(/start \*\*\d\d:\d\d\*\*/);
      // Her day-before reminders, one DM each. On some test instants she is entered in more of the
      // club's races the walk passes: each race gets its own, and none comes twice.
      const reminders = transcript
        .split('DM to @astrid, from the bot:')
        .slice(1)
        .map((dm) => dm.split('\n── ')[0]!)
        .filter((dm) => dm.includes('Tomorrow'));
      const races = reminders.map((dm) => /Tomorrow[^*\n]*\*\*[^*]+\*\*, \*\*([^*]+)\*\*/.exec(dm)?.[1]);
      expect(races).not.toContain(undefined);
      expect(new Set(races).size).toBe(races.length);
      const name = escape(result.event.name);
      const race = reminders.filter((dm) => dm.includes(`**${result.event.name}**`));
      expect(race).toHaveLength(1);
      expect(race[0]).toMatch(new RegExp(`Tomorrow \\d\\d:\\d\\d, \\*\\*[^*]+\\*\\*, \\*\\*${name}\\*\\*`));
    });

    it("keeps the club's races in the server's Events tab: added once, moved, cancelled, and Discord's own states", () => {
      expect(transcript).toContain('kassoren used /feeds on kind: calendar');
      const added = transcript.split('Events tab, the bot added a scheduled event:').slice(1);
      const raceAdded = added.filter((part) => part.split('\n── ')[0]!.includes(`**${result.event.name}**`));
      expect(raceAdded).toHaveLength(1);
      expect(raceAdded[0]).toContain(`/Events/Show/${result.event.id}`);
      // The sandbox's organisers move one race a day later and cancel another; the bot follows each once.
      const moved = /The organiser of (.+) moves it a day later/.exec(transcript)![1]!;
      const cancelled = /The organiser cancels (.+) in the sandbox Eventor/.exec(transcript)![1]!;
      expect(transcript).toMatch(
        new RegExp(`the bot updated "${escape(moved)}" \\("-" gone, "\\+" new\\):\\n\\s+- \\*\\*`),
      );
      expect(occurrences(transcript, `"${cancelled}": the bot cancelled it.`)).toBe(1);
      expect(occurrences(transcript, `"${result.event.name}": Discord shows it as under way.`)).toBe(1);
      expect(occurrences(transcript, `"${result.event.name}": Discord shows it as over.`)).toBe(1);
      expect(transcript.indexOf(`"${cancelled}": the bot cancelled it.`)).toBeGreaterThan(
        transcript.indexOf(`The organiser cancels ${cancelled}`),
      );
    });

    it('opens a thread under the results post and shows what it holds, shortened, and its edit', () => {
      expect(transcript).toContain('kassoren used /feeds threads state: on');
      const where = `#resultat › ${result.event.name} (thread)`;
      const opened = transcript.indexOf(`${where}, message 1 from the bot:`);
      expect(opened).toBeGreaterThan(transcript.indexOf(`Results: ${result.event.name}`));
      // The club's complete results, cut to a dozen lines in the transcript.
      const shown = transcript.slice(opened).split('\n── ')[0]!;
      expect(shown).toContain(`**Results: ${result.event.name}**`);
      expect(shown).toMatch(/… \(\d+ more lines\)/);
      // Corrected with the post: the thread's first message too, after the organiser's correction.
      const edited = transcript.indexOf(`${where}, the bot edited its message 1:`);
      expect(edited).toBeGreaterThan(transcript.indexOf('After a protest the organiser corrects'));
      expect(transcript.indexOf('After a protest the organiser corrects')).toBeGreaterThan(opened);
    });

    it('shows each post exactly once, in time order, and nothing secret or run-specific', () => {
      expect(new Set(result.posts.map((p) => p.messageId)).size).toBe(result.posts.length);
      // The posts of the weekend; the one made anew after it is counted in its own test.
      const weekend = transcript.slice(0, transcript.indexOf('After the weekend: Discord refuses the bot.'));
      expect(occurrences(weekend, ', a new post:')).toBe(result.posts.length);
      // The transcript indents each post by three spaces.
      for (const post of result.posts)
        expect(
          occurrences(
            transcript,
            post.text
              .split('\n')
              .map((line) => `   ${line}`)
              .join('\n'),
          ),
        ).toBe(1);
      const times = result.posts.map((p) => Date.parse(p.at));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      // No club's API key in the sandbox part 3 ran on, nor anyone's password.
      const ds = datasets.get(3)!;
      for (const club of ds.clubs) expect(transcript.includes(club.apiKey), club.name).toBe(false);
      for (const person of ds.persons) expect(transcript.includes(person.password), person.username).toBe(false);
      // The one thing of this run the demo adds is the pictures folder its caller chose, named
      // only where a picture is saved: with it left out there, nothing else of the run remains.
      const shown = transcript.replace(
        /(\[picture \S+ saved as )(\S+?)(?=: "|\])/g,
        (line, saved: string, file: string) =>
          path.dirname(file) === pictures ? `${saved}<pictures>/${path.basename(file)}` : line,
      );
      expect(shown).not.toContain(pictures);
      expect(shown).not.toContain(tmpdir());
      expect(shown).not.toMatch(/\/login\//);
      expect(shown).not.toMatch(/127\.0\.0\.1:\d/);
      // No post shows its marker: it is in characters Discord draws nothing for.
      expect(shown).not.toMatch(/ref eb[A-Za-z0-9_-]{12}|(?:· |-# |> )eb[A-Za-z0-9_-]{8}\b|<ref>/);
      expect(shown).not.toMatch(/\u200b|\u200c|\u200d|\u2060/);
      // Members read times as Discord shows them, never a raw UTC stamp.
      expect(shown).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
      expect(shown).not.toMatch(/<t:\d+/);
    });
  });
});

describe('lineDiff', () => {
  it('marks removed and added lines, keeps the rest', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual(['  a', '- b', '+ B', '  c', '+ d']);
    expect(lineDiff('same', 'same')).toEqual(['  same']);
  });
});
