import { beforeAll, describe, expect, it } from 'vitest';
import { lineDiff, runSchedulerSession, type SchedulerSessionResult } from '../../harness/demo/scheduler-session.js';
import { formatElapsed } from '../../src/eventor/time.js';
import { SandboxDataset } from '../../harness/sandbox/eventor/dataset.js';

/** `text` as a regular expression matching itself. */
function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** How many times `part` occurs in `text`. */
function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('npm run demo, part 3: automatic posts through a race weekend', () => {
  let result: SchedulerSessionResult;
  let transcript: string;

  beforeAll(async () => {
    const lines: string[] = [];
    result = await runSchedulerSession((line) => void lines.push(line));
    transcript = lines.join('\n');
  }, 240_000);

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
      expect(reminder.edits).toEqual([]);
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
    // Reminders are edited too, as more from the club enter (the sandbox's entries grow with its clock).
    expect(transcript).toMatch(
      /#anmälan, the bot edited its post of[^\n]*\n(?:.*\n){0,8}?\s*\+ > \d+ from the club have entered so far\./,
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
    const reminders = transcript
      .split('DM to @astrid, from the bot:')
      .slice(1)
      .filter((dm) => dm.includes('Tomorrow'));
    expect(reminders).toHaveLength(1);
    const name = escape(result.event.name);
    expect(reminders[0]).toMatch(new RegExp(`Tomorrow \\d\\d:\\d\\d, \\*\\*[^*]+\\*\\*, \\*\\*${name}\\*\\*`));
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
    // The sandbox's API key is the same for every run of seed 1.
    expect(transcript).not.toContain(new SandboxDataset({ seed: 1 }).homeClub.apiKey);
    expect(transcript).not.toMatch(/\/login\//);
    expect(transcript).not.toMatch(/127\.0\.0\.1:\d/);
    // No post shows its marker: it is in characters Discord draws nothing for.
    expect(transcript).not.toMatch(/ref eb[A-Za-z0-9_-]{12}|(?:· |-# |> )eb[A-Za-z0-9_-]{8}\b|<ref>/);
    expect(transcript).not.toMatch(/\u200b|\u200c|\u200d|\u2060/);
    // Members read times as Discord shows them, never a raw UTC stamp.
    expect(transcript).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(transcript).not.toMatch(/<t:\d+/);
  });
});

describe('lineDiff', () => {
  it('marks removed and added lines, keeps the rest', () => {
    expect(lineDiff('a\nb\nc', 'a\nB\nc\nd')).toEqual(['  a', '- b', '+ B', '  c', '+ d']);
    expect(lineDiff('same', 'same')).toEqual(['  same']);
  });
});
