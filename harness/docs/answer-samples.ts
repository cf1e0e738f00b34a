/**
 * `npm run docs:samples`: the samples of what the bot answers in docs/members.md and
 * docs/admins.md, made by the real bot rather than typed: the loopback world (sandbox Eventor,
 * sandbox Discord, the real bot) at a fixed instant answers each command, the answer is read back
 * from the sandbox Discord as a member reads it, and written between markers on the page
 * (written.ts). test/repo/answer-samples.test.ts writes them again and fails when a page differs.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PROVEN_LINK } from '../../src/store/interfaces.js';
import { type DemoFacts, demoFacts, discordName, humanize } from '../demo/bot-session.js';
import { type LoopbackWorld, startLoopbackWorld } from '../loopback/world.js';
import {
  type InteractionHandle,
  type MessageView,
  renderMessageText,
  type TimestampReader,
} from '../sandbox/discord/index.js';
import type { SandboxUser } from '../sandbox/discord/types.js';
import { REPO, type WrittenPart, writePages, writtenPages } from './written.js';

/** The instant the samples' world starts from: fixed, so the same races, members and deadlines every time. */
export const SAMPLES_AT = new Date('2026-11-18T09:00:00Z');
/** The sandbox Eventor's address as the samples show it (its port is random). */
const EVENTOR_SHOWN = new URL('http://127.0.0.1:39111');
const TIME_ZONE = 'Europe/Stockholm';
const WAIT = { timeoutMs: 30_000 };
/** A member asks every couple of seconds, within the bot's budget per member (src/bot/router.ts). */
const GAP_MS = 2_100;
const WRITER = 'npm run docs:samples';

/** The server's channels the samples name, by name. */
interface SampleChannels {
  resultat: string;
  veckan: string;
}

/** Who asks in a sample: the linked member, a member who is not linked, or the admin (Swedish Discord). */
type Asker = 'linked' | 'member' | 'admin';

export interface SamplePlan {
  page: string;
  /** Its name between the markers on the page. */
  name: string;
  who: Asker;
  command: string;
  subcommand?: string;
  options?: (facts: DemoFacts, channels: SampleChannels) => Record<string, string | number | boolean>;
  /** Show the direct message the command sent, not its answer. */
  dm?: boolean;
  /** Show the post the command made in this channel, not its answer. */
  postIn?: keyof SampleChannels;
  /** The Discord language it is asked in (default: the asker's). */
  locale?: string;
  /** Commands the asker runs first, not shown (say, turning DMs on before `/notify show`). */
  first?: ReadonlyArray<{
    command: string;
    subcommand?: string;
    options?: (facts: DemoFacts, channels: SampleChannels) => Record<string, string | number | boolean>;
  }>;
  /** The part of the answer shown (default: all of it). */
  pick?: (text: string) => string;
}

/** The first `n` lines, and "…" when there are more. */
const head =
  (n: number) =>
  (text: string): string => {
    const lines = text.split('\n');
    return lines.length <= n ? text : [...lines.slice(0, n), '…'].join('\n');
  };

/** The first `n` lines, "…", and the last `m`. */
const headTail =
  (n: number, m: number) =>
  (text: string): string => {
    const lines = text.split('\n');
    return lines.length <= n + m ? text : [...lines.slice(0, n), '…', ...lines.slice(-m)].join('\n');
  };

/** The first `n` lines, "…", then `m` lines from the first line `from` matches. */
const headThen =
  (n: number, from: RegExp, m: number) =>
  (text: string): string => {
    const lines = text.split('\n');
    const at = lines.findIndex((line, i) => i >= n && from.test(line));
    if (at < 0) throw new Error(`no line of the answer matches ${String(from)}:\n${text}`);
    return [...lines.slice(0, n), '…', ...lines.slice(at, at + m)].join('\n');
  };

/** The first block (lines between blank lines) that `test` accepts. */
const block =
  (test: (block: string) => boolean) =>
  (text: string): string => {
    const found = text.split(/\n\s*\n/).find(test);
    if (!found) throw new Error(`no part of the answer fits:\n${text}`);
    return found;
  };

export const SAMPLES: readonly SamplePlan[] = [
  { page: 'docs/members.md', name: 'sample /events', who: 'member', command: 'events' },
  {
    page: 'docs/members.md',
    name: 'sample /event',
    who: 'member',
    command: 'event',
    options: (f) => ({ event: f.upcomingEventId }),
    pick: headTail(10, 2),
  },
  { page: 'docs/members.md', name: 'sample /entries', who: 'member', command: 'entries', pick: head(7) },
  { page: 'docs/members.md', name: 'sample /starts', who: 'linked', command: 'starts', pick: head(6) },
  {
    page: 'docs/members.md',
    name: 'sample /results',
    who: 'linked',
    command: 'results',
    options: () => ({ splits: true }),
    pick: headThen(7, /^\s+Finish /, 1),
  },
  {
    page: 'docs/members.md',
    name: 'sample club results',
    who: 'member',
    command: 'results',
    options: (f) => ({ event: f.resultsEventId }),
    // A class with the club's runners on the podium and off it.
    pick: block((b) => /^\S+ \(\d+\)/.test(b) && /🥇|🥈|🥉/.test(b) && b.split('\n').length >= 4),
  },
  { page: 'docs/members.md', name: 'sample /activities', who: 'member', command: 'activities', pick: head(6) },
  { page: 'docs/members.md', name: 'sample /next', who: 'linked', command: 'next', pick: head(5) },
  {
    page: 'docs/members.md',
    name: 'sample /season member',
    who: 'linked',
    command: 'season',
    subcommand: 'member',
    pick: head(11),
  },
  {
    page: 'docs/members.md',
    name: 'sample /season club',
    who: 'admin',
    command: 'season',
    subcommand: 'club',
    pick: headThen(5, /^Per klass$/, 2),
  },
  { page: 'docs/members.md', name: 'sample /whoami', who: 'linked', command: 'whoami' },
  { page: 'docs/members.md', name: 'sample /login', who: 'linked', command: 'login' },
  { page: 'docs/members.md', name: 'sample /login DM', who: 'linked', command: 'login', dm: true },
  { page: 'docs/members.md', name: 'sample /card', who: 'linked', command: 'card' },
  {
    page: 'docs/members.md',
    name: 'sample /notify show',
    who: 'linked',
    command: 'notify',
    subcommand: 'show',
    first: [{ command: 'notify', subcommand: 'on' }],
    pick: head(4),
  },
  { page: 'docs/members.md', name: 'sample /status', who: 'member', command: 'status' },
  // A new server's linking: what /setup linking says before an admin chose (the defaults).
  {
    page: 'docs/admins.md',
    name: 'sample /setup linking',
    who: 'admin',
    locale: 'en-GB',
    command: 'setup',
    subcommand: 'linking',
  },
  { page: 'docs/admins.md', name: 'sample /setup show', who: 'admin', command: 'setup', subcommand: 'show' },
  {
    page: 'docs/admins.md',
    name: 'sample /setup language',
    who: 'admin',
    locale: 'en-GB',
    command: 'setup',
    subcommand: 'language',
    options: () => ({ language: 'en' }),
  },
  // After the linked member's /login above: the audit log names it.
  {
    page: 'docs/admins.md',
    name: 'sample /admin audit',
    who: 'admin',
    command: 'admin',
    subcommand: 'audit',
    pick: head(2),
  },
  {
    page: 'docs/admins.md',
    name: 'sample /feeds on results',
    who: 'admin',
    locale: 'en-GB',
    command: 'feeds',
    subcommand: 'on',
    options: (_f, channels) => ({ kind: 'results', channel: channels.resultat }),
  },
  {
    page: 'docs/admins.md',
    name: 'sample /feeds on calendar',
    who: 'admin',
    locale: 'en-GB',
    command: 'feeds',
    subcommand: 'on',
    options: () => ({ kind: 'calendar' }),
  },
  // The digest as it would look now, in English (the server's posts are, since /setup language above).
  {
    page: 'docs/admins.md',
    name: 'sample /feeds test digest',
    who: 'admin',
    locale: 'en-GB',
    command: 'feeds',
    subcommand: 'test',
    first: [{ command: 'feeds', subcommand: 'on', options: (_f, c) => ({ kind: 'digest', channel: c.veckan }) }],
    options: () => ({ kind: 'digest' }),
    postIn: 'veckan',
    pick: headThen(6, /^Last week's results$/, 6),
  },
  {
    page: 'docs/admins.md',
    name: 'sample /cup create',
    who: 'admin',
    locale: 'en-GB',
    command: 'cup',
    subcommand: 'create',
    options: () => ({ name: 'Höstcupen', scoring: 'place', best: 3, levels: 'national, local' }),
  },
];

/**
 * An answer as the samples show it: as a member reads it in Discord, without the quoting of embeds
 * or Markdown's marks: no `**`, links by their text, buttons by their label.
 */
export function sampleText(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/^> ?/, ''))
    .filter((line) => !/^```/.test(line))
    .join('\n')
    .replace(/\*\*|__|~~/g, '')
    .replace(/\[([^\]\n]+)\]\((?:https?:\/\/|<)[^)\s]+\)/g, '$1')
    .replace(/\[([^\]\n]+?) -> [^\]\s]+\]/g, '[$1]')
    .replace(/https?:\/\/\S+\/login\/[A-Za-z0-9_-]+/g, '(one-time login link)')
    .trim();
}

/** Every sample, asked of the real bot at SAMPLES_AT: the parts to write into the pages. */
export async function answerSampleParts(plans: readonly SamplePlan[] = SAMPLES): Promise<WrittenPart[]> {
  // A clock the samples move on themselves, a couple of seconds a command: the same times in every
  // run, however slow the machine, and the bot's budget per member refills as it would.
  let at = SAMPLES_AT.getTime();
  const clock = (): Date => new Date(at);
  const world: LoopbackWorld = await startLoopbackWorld({ now: clock });
  try {
    const dataset = world.eventor.dataset;
    const facts = demoFacts(dataset, clock().getTime());
    const given = dataset.person(facts.linkedPersonId)!.person.name.given;
    // The member linked with her Eventor password, as /link eventor links (login links need it).
    const linked = world.discord.createMember(world.guild.id, {
      username: discordName(given),
      globalName: given,
      locale: 'en-GB',
    });
    await world.bot.store.links.linkPerson(world.guild.id, linked.id, facts.linkedPersonId, PROVEN_LINK);
    const users: Record<Asker, SandboxUser> = { linked, member: world.member, admin: world.admin };
    const resultat = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    // The bot's role may make the club's races in the server's Events (the invite asks for it).
    world.discord.setBotCanCreateEvents(world.guild.id, true);
    world.discord.setBotCanManageEvents(world.guild.id, true);
    const veckan = world.discord.createTextChannel(world.guild.id, { name: 'veckan' });
    const channels: SampleChannels = { resultat: resultat.id, veckan: veckan.id };
    const names = new Map<string, string>([
      [world.channel.id, world.channel.name ?? 'allmänt'],
      [resultat.id, 'resultat'],
      [veckan.id, 'veckan'],
      ...Object.values(users).map((u): [string, string] => [u.id, u.username]),
    ]);
    const origin = new URL(world.eventor.baseUrl);
    const parts: WrittenPart[] = [];
    for (const plan of plans) {
      const user = users[plan.who];
      const locale = plan.locale ?? user.locale;
      const ask = (
        command: string,
        subcommand: string | undefined,
        options: Record<string, string | number | boolean>,
      ): InteractionHandle => {
        at += GAP_MS;
        return world.discord.runCommand({
          guildId: world.guild.id,
          channelId: world.channel.id,
          user,
          locale,
          name: command,
          ...(subcommand ? { subcommand } : {}),
          options,
        });
      };
      for (const step of plan.first ?? [])
        await ask(step.command, step.subcommand, step.options?.(facts, channels) ?? {}).answer(WAIT);
      const dms = world.discord.dms(user).length;
      let message: MessageView = await ask(plan.command, plan.subcommand, plan.options?.(facts, channels) ?? {}).answer(
        WAIT,
      );
      if (plan.postIn) {
        const post = world.discord.messages(channels[plan.postIn]).at(-1);
        if (!post?.author.bot) throw new Error(`${plan.name}: no post of the bot in #${plan.postIn}`);
        message = post;
      }
      if (plan.dm) {
        await world.discord.waitForDm(user, () => world.discord.dms(user).length > dms, WAIT);
        message = world.discord.dms(user).at(-1)!;
      }
      const reader: TimestampReader = { locale, timeZone: TIME_ZONE, now: clock().getTime() };
      const shown = humanize(renderMessageText(message, { header: false, reader }), reader, names)
        .replaceAll(origin.origin, EVENTOR_SHOWN.origin)
        .replaceAll(origin.host, EVENTOR_SHOWN.host);
      const text = (plan.pick ?? ((t: string) => t))(sampleText(shown));
      parts.push({ page: plan.page, name: plan.name, markdown: `\`\`\`text\n${text}\n\`\`\`` });
    }
    return parts;
  } finally {
    await world.close();
  }
}

/**
 * The demo's race weekend as the bot posted it, recorded: test/e2e/feeds-race-day.test.ts fails
 * when the bot's posts differ from it, so what is taken from it is the bot's own.
 */
export const RACE_WEEKEND = 'test/fixtures/race-weekend-transcript.txt';

/** One step of the recorded weekend: the text after its heading line, up to the next step. */
function stepAfter(transcript: string, heading: RegExp): string {
  const at = transcript.search(heading);
  if (at < 0) throw new Error(`${RACE_WEEKEND} has no step matching ${String(heading)}`);
  const body = transcript.slice(transcript.indexOf('\n', at) + 1);
  const next = body.indexOf('\n── ');
  return (next < 0 ? body : body.slice(0, next)).replace(/^ {3}/gm, '');
}

/**
 * The README's results post: from the recorded weekend, the post's heading and the class of the
 * runner whose time the organiser corrected, before and after the bot's edit.
 */
export async function readmeResultsPart(): Promise<WrittenPart> {
  const transcript = await readFile(path.join(REPO, RACE_WEEKEND), 'utf8');
  const correction = /corrects (.+?)'s time in (\S+) from ([\d:]+) to ([\d:]+) in the sandbox Eventor/.exec(transcript);
  if (!correction) throw new Error(`${RACE_WEEKEND} has no correction`);
  const [, name, className, from, to] = correction;
  const post = stepAfter(transcript, /#resultat, a new post:/)
    .split('\n')
    .slice(1)
    .join('\n');
  // The edit shows what went ("- ") and came ("+ "): the post after it is the rest.
  const edited = stepAfter(transcript, /#resultat, the bot edited its post of/)
    .split('\n')
    .slice(1)
    .filter((line) => !line.startsWith('- '))
    .map((line) => line.slice(2))
    .join('\n');
  const shown = (text: string): string => {
    const lines = sampleText(text.replaceAll('<port>', EVENTOR_SHOWN.port)).split('\n');
    const at = lines.findIndex((line) => line.startsWith(`${className} (`));
    const end = lines.findIndex((line, i) => i > at && line.trim() === '');
    return [...lines.slice(0, 3), ...lines.slice(at, end < 0 ? undefined : end)].join('\n');
  };
  const classes = sampleText(post)
    .split('\n')
    .filter((line) => /^\S+ \(\d+\)$/.test(line)).length;
  return {
    page: 'README.md',
    name: 'sample results post',
    markdown: [
      `And part of a results post in the club's \`#resultat\` channel on race day (one class of ${classes} shown):`,
      `\`\`\`text\n${shown(post)}\n\`\`\``,
      `When the organiser later corrected ${name}'s time from ${from} to ${to}, the bot edited that post, and the places and times behind changed with it:`,
      `\`\`\`text\n${shown(edited)}\n\`\`\``,
    ].join('\n\n'),
  };
}

/**
 * The admins' page's reminder post: from the recorded weekend, the first edit of a reminder, its
 * lines gone ("- ") and new ("+ ") marked.
 */
export async function adminsReminderPart(): Promise<WrittenPart> {
  const transcript = await readFile(path.join(REPO, RACE_WEEKEND), 'utf8');
  const heading = /── \[([^\]]+)\] #anmälan, the bot edited its post of ([^(]+?) \(/.exec(transcript);
  if (!heading) throw new Error(`${RACE_WEEKEND} has no edited reminder`);
  const [, editedAt, postedAt] = heading;
  const lines = stepAfter(transcript, /#anmälan, the bot edited its post of/)
    .split('\n')
    .slice(1)
    .map((line) => {
      const mark = line.slice(0, 2);
      const text = sampleText(line.slice(2).replaceAll('<port>', EVENTOR_SHOWN.port));
      return mark === '  ' ? text : `${mark}${text}`;
    });
  return {
    page: 'docs/admins.md',
    name: 'sample reminder post',
    markdown: [
      `A reminder post from the demo's race weekend (posted ${postedAt}), as the bot edited it on ${editedAt} ("-" gone, "+" new):`,
      `\`\`\`text\n${lines.join('\n').trim()}\n\`\`\``,
    ].join('\n\n'),
  };
}

/**
 * The admins' page's cup standings post: from the recorded weekend, the admin's /cup create and
 * its answer, then the first edit of the cup's post, its list shortened, gone ("- ") and new ("+ ")
 * lines marked.
 */
export async function adminsCupPart(): Promise<WrittenPart> {
  const transcript = await readFile(path.join(REPO, RACE_WEEKEND), 'utf8');
  const created = /── \[[^\]]+\] (\S+ used \/cup create [^\n]*)/.exec(transcript);
  const edited = /── \[([^\]]+)\] #cupen, the bot edited/.exec(transcript);
  if (!created || !edited) throw new Error(`${RACE_WEEKEND} has no /cup create or no edited cup post`);
  const answer = stepAfter(transcript, /used \/cup create/)
    .split('\n')
    .slice(1)
    .map((line) => sampleText(line))
    .filter((line) => line !== '');
  const diff = stepAfter(transcript, /#cupen, the bot edited its post of/)
    .split('\n')
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const mark = line.slice(0, 2);
      const text = sampleText(line.slice(2));
      return mark === '  ' ? text : `${mark}${text}`;
    });
  const firstRank = diff.findIndex((line) => /^(?:[-+] )?\d+\. /.test(line));
  const shown = [...diff.slice(0, firstRank), ...diff.slice(firstRank, firstRank + 6), '…', ...diff.slice(-3)];
  return {
    page: 'docs/admins.md',
    name: 'sample cup standings post',
    markdown: [
      `From the demo's race weekend: the admin chooses the cup, and on ${edited[1]}, after the race's results are in Eventor, the bot edits its post ("-" gone, "+" new):`,
      `\`\`\`text\n${[created[1], ...answer, '', '#cupen', ...shown].join('\n')}\n\`\`\``,
    ].join('\n\n'),
  };
}

/** The pages with every sample written in, as they should be. */
export async function samplePages(): Promise<Map<string, string>> {
  return writtenPages(
    [await readmeResultsPart(), await adminsReminderPart(), await adminsCupPart(), ...(await answerSampleParts())],
    WRITER,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    for (const line of await writePages(await samplePages())) process.stdout.write(`${line}\n`);
  } catch (error) {
    process.stderr.write(`docs:samples failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
