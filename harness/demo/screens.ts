/**
 * `npm run docs:screens`: the pictures of docs/members.md, docs/admins.md and the README, made
 * rather than drawn by hand. The loopback world (sandbox Eventor, sandbox Discord, the real bot)
 * answers members' commands and posts results with their thread; the messages are read back from
 * the sandbox Discord (embeds, content, the attached pictures' bytes), laid out as Discord lays them
 * out (screen-html.ts) and captured by headless Chromium from the distribution's packages
 * (chromium.ts). Writes docs/pictures/*.png, overwriting.
 *
 * Exit codes: 0 written, 1 a command went unanswered or Chromium failed, 2 no Chromium found or a
 * bad argument (one line saying so).
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { clockFrom, sandboxClockFromEnv } from '../../src/config/sandbox-clock.js';
import { type LoopbackWorld, startLoopbackWorld } from '../loopback/world.js';
import type { MessageView, TimestampReader } from '../sandbox/discord/index.js';
import type { SandboxUser } from '../sandbox/discord/types.js';
import { type DemoFacts, demoFacts, discordName } from './bot-session.js';
import { findChromium, HeadlessChromium } from './chromium.js';
import { type Screen, SCREEN_SELECTOR, SCREEN_WIDTH, type ScreenMessage, screenHtml } from './screen-html.js';

/** Where the pictures go by default: docs/pictures of the repository this was compiled from. */
export const DOCS_PICTURES = fileURLToPath(new URL('../../../docs/pictures/', import.meta.url));

/** Device pixels per CSS pixel: sharp on a high-density screen, and the charts keep their detail. */
const SCALE = 2;
const TIME_ZONE = 'Europe/Stockholm';
const WAIT = { timeoutMs: 30_000 };
const HOUR = 3_600_000;

/** One picture: its file name (without .png), and how its messages come about. */
export interface ScreenPlan {
  name: string;
  /** What the picture shows, for the run's output. */
  about: string;
  /** The channel (or thread) shown in the header. */
  channel: string;
  make(world: LoopbackWorld, cast: ScreenCast): Promise<ScreenContent>;
}

/** What a screen shows: the messages, and the channel or thread when not the plan's own. */
export interface ScreenContent {
  messages: ScreenMessage[];
  channel?: string;
}

/** Who and what the screens show: the demo's facts and the member, linked to her Eventor person. */
export interface ScreenCast {
  facts: DemoFacts;
  /** A member of the club's server, on Discord under her own first name, linked to `facts.linkedPersonId`. */
  member: SandboxUser;
}

const timeOfDay = new Intl.DateTimeFormat('en-GB', { timeZone: TIME_ZONE, hour: '2-digit', minute: '2-digit' });

/** A message as read back from the sandbox Discord, as the screen shows it. */
export function screenMessage(
  view: MessageView,
  options: { invokedBy?: { user: string; command: string }; authorName?: string } = {},
): ScreenMessage {
  return {
    author: { name: options.authorName ?? view.author.username, bot: view.author.bot },
    ...(options.invokedBy ? { invokedBy: options.invokedBy } : {}),
    time: `Today at ${timeOfDay.format(view.createdAt)}`,
    content: view.content,
    embeds: view.embeds,
    components: view.components,
    attachments: view.attachments,
    ephemeral: view.ephemeral,
  };
}

/** A member runs a slash command in #allmänt; the screen shows the bot's answer under "… used /name". */
async function command(
  world: LoopbackWorld,
  user: SandboxUser,
  name: string,
  options: Record<string, string | number | boolean> = {},
): Promise<ScreenContent> {
  const handle = world.discord.runCommand({
    guildId: world.guild.id,
    channelId: world.channel.id,
    user,
    locale: user.locale,
    name,
    options,
  });
  const answer = await handle.answer(WAIT);
  // Every answer shown is an embed; a bare line is the bot saying something went wrong, not a screen.
  if (answer.embeds.length === 0)
    throw new Error(`/${name} was answered without an embed: ${answer.content.split('\n')[0] ?? ''}`);
  return {
    messages: [screenMessage(answer, { invokedBy: { user: user.globalName ?? user.username, command: `/${name}` } })],
  };
}

/**
 * The results thread's split graph of the member's class: the results feed, with threads on, posts
 * the race's results when they come out and opens the thread, whose last messages are the graphs.
 * The feed runs on the scheduler's clock and posts only what comes out after it started, so this
 * is a world of its own whose clock moves on an hour while the results come out.
 */
async function resultsThread(startsAt: Date): Promise<ScreenContent> {
  let clock = startsAt;
  const world = await startLoopbackWorld({ now: () => clock, eventorFollowsClock: true });
  try {
    const dataset = world.eventor.dataset;
    const facts = demoFacts(dataset, clock.getTime());
    const event = dataset.events.find((e) => e.id === facts.resultsEventId)!;
    const { given, family } = dataset.person(facts.linkedPersonId)!.person.name;
    event.hasResults = false;
    event.materialized = null;
    const resultat = world.discord.createTextChannel(world.guild.id, { name: 'resultat' });
    const admin = async (name: string, subcommand: string, options: Record<string, string>): Promise<void> => {
      const handle = world.discord.runCommand({
        guildId: world.guild.id,
        channelId: world.channel.id,
        user: world.admin,
        locale: 'en-GB',
        name,
        subcommand,
        options,
      });
      await handle.reply(WAIT);
    };
    // The posts in English, as the member reads them; results in #resultat, with a thread.
    await admin('setup', 'language', { language: 'en' });
    await admin('feeds', 'on', { kind: 'results', channel: resultat.id });
    await admin('feeds', 'threads', { state: 'on' });
    await world.bot.scheduler.tick(clock, { force: true });
    event.hasResults = true;
    event.materialized = null;
    clock = new Date(clock.getTime() + HOUR);
    await world.bot.scheduler.tick(clock, { force: true });
    const threadId = world.discord.messages(resultat.id).find((m) => m.threadId)?.threadId;
    if (!threadId) throw new Error('the results feed opened no thread');
    const graph = world.discord
      .messages(threadId)
      .find((m) => m.attachments.length > 0 && m.embeds.some((e) => e.description?.includes(`${given} ${family}`)));
    if (!graph) throw new Error(`the results thread has no split graph with ${given} ${family}`);
    const thread = world.discord.world.channels.get(threadId)?.name ?? 'thread';
    return { channel: `${resultat.name ?? 'resultat'} › ${thread}`, messages: [screenMessage(graph)] };
  } finally {
    await world.close();
  }
}

/** The pictures docs/members.md shows, in its order, and the results thread's of docs/admins.md. */
export const SCREENS: readonly ScreenPlan[] = [
  {
    name: 'events',
    about: '/events days: 30, upcoming events',
    channel: 'allmänt',
    make: (world, { member }) => command(world, member, 'events', { days: 30 }),
  },
  {
    name: 'results',
    about: "/results with splits, the member's result at her latest race",
    channel: 'allmänt',
    make: (world, { facts, member }) =>
      command(world, member, 'results', { member: facts.linkedPersonId, event: facts.resultsEventId, splits: true }),
  },
  {
    name: 'splits',
    about: '/splits, where the member lost time at her latest race',
    channel: 'allmänt',
    make: (world, { facts, member }) => command(world, member, 'splits', { event: facts.resultsEventId }),
  },
  {
    name: 'results-thread',
    about: "the split graph of the member's class in the results thread",
    channel: 'resultat',
    make: (world) => resultsThread(world.eventor.now()),
  },
];

/** Width and height of a PNG, from its header. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 24 || png.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** The fonts the pages use, from the npm package the charts use too, so every machine draws the same. */
function fonts(): NonNullable<Screen['fonts']> {
  const require = createRequire(import.meta.url);
  const url = (file: string): string => pathToFileURL(require.resolve(`dejavu-fonts-ttf/ttf/${file}`)).href;
  return { sans: url('DejaVuSans.ttf'), sansBold: url('DejaVuSans-Bold.ttf'), mono: url('DejaVuSansMono.ttf') };
}

export interface ScreensOptions {
  /** The Chromium program. */
  chromium: string;
  /** The folder the PNG files are written to (made if missing). */
  outDir: string;
  write?: (line: string) => void;
  /** Only these screens (by name); default all. */
  only?: readonly string[];
  /** The instant the screens' world starts from (`--at`; default: now, today's races). */
  startsAt?: Date;
}

/** Makes every screen; resolves with the files written. */
export async function runScreens(options: ScreensOptions): Promise<string[]> {
  const write = options.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const plans = SCREENS.filter((s) => !options.only || options.only.includes(s.name));
  const pages = await mkdtemp(path.join(tmpdir(), 'eventor-bot-screens-'));
  const written: string[] = [];
  // The browser first: when it cannot start, nothing else has been started for nothing.
  const browser = await HeadlessChromium.launch(options.chromium).catch(async (error: unknown) => {
    await rm(pages, { recursive: true, force: true });
    throw error;
  });
  // Today's races, as a member trying the bot would see them (or those around `--at`).
  const clock = clockFrom(options.startsAt ?? new Date());
  const world = await startLoopbackWorld({ now: clock }).catch(async (error: unknown) => {
    await browser.close();
    await rm(pages, { recursive: true, force: true });
    throw error;
  });
  try {
    const facts = demoFacts(world.eventor.dataset, clock().getTime());
    // The member who asks is the runner whose results the screens show, linked as an admin would link her.
    const given = world.eventor.dataset.person(facts.linkedPersonId)!.person.name.given;
    const member = world.discord.createMember(world.guild.id, {
      username: discordName(given),
      globalName: given,
      locale: 'en-GB',
    });
    await world.bot.store.links.linkPerson(world.guild.id, member.id, facts.linkedPersonId, 'admin');
    const cast: ScreenCast = { facts, member };
    const names = new Map<string, string>([
      [world.channel.id, world.channel.name ?? 'allmänt'],
      ...[member, world.member, world.swedishMember, world.admin].map((u): [string, string] => [
        u.id,
        u.globalName ?? u.username,
      ]),
    ]);
    await mkdir(options.outDir, { recursive: true });
    for (const plan of plans) {
      const { messages, channel = plan.channel } = await plan.make(world, cast);
      const reader: TimestampReader = { locale: 'en-GB', timeZone: TIME_ZONE, now: clock().getTime() };
      const html = screenHtml({
        title: plan.about,
        channel,
        messages,
        reader,
        names,
        fonts: fonts(),
        width: SCREEN_WIDTH,
      });
      const page = path.join(pages, `${plan.name}.html`);
      await writeFile(page, html);
      const png = await browser.capture(pathToFileURL(page).href, {
        width: SCREEN_WIDTH,
        scale: SCALE,
        selector: SCREEN_SELECTOR,
      });
      const file = path.join(options.outDir, `${plan.name}.png`);
      await writeFile(file, png);
      const size = pngSize(png);
      write(`wrote ${file} (${size.width}×${size.height}): ${plan.about}`);
      written.push(file);
    }
  } finally {
    await browser.close();
    await world.close();
    await rm(pages, { recursive: true, force: true });
  }
  return written;
}

/** The one line said when there is no Chromium to capture with. */
export const NO_CHROMIUM =
  'docs:screens needs Chromium: install it (Debian: apt-get install chromium) or set CHROMIUM to its program; none found as chromium or chromium-browser on PATH.';

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: { out?: string | undefined; only?: string | undefined; at?: string | undefined };
  const usage = '(options: --out <dir>, --only <name,…>, --at <instant>)';
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { out: { type: 'string' }, only: { type: 'string' }, at: { type: 'string' } },
      allowPositionals: false,
    }));
  } catch (error) {
    process.stderr.write(`docs:screens: ${(error as Error).message} ${usage}\n`);
    return 2;
  }
  const startsAt =
    values.at === undefined ? undefined : sandboxClockFromEnv({ SANDBOX_CLOCK: values.at }, ['http://127.0.0.1/'], []);
  if (values.at !== undefined && startsAt === undefined) {
    process.stderr.write(`docs:screens: --at must be an instant with its zone, e.g. 2026-11-18T09:00:00Z ${usage}\n`);
    return 2;
  }
  const only = values.only?.split(',').map((s) => s.trim());
  const unknown = only?.filter((name) => !SCREENS.some((s) => s.name === name)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(
      `docs:screens: no screen named ${unknown.join(', ')} (there are ${SCREENS.map((s) => s.name).join(', ')}).\n`,
    );
    return 2;
  }
  const chromium = findChromium(env);
  if (!chromium) {
    process.stderr.write(
      env.CHROMIUM ? `docs:screens: CHROMIUM=${env.CHROMIUM} is not a program that can be run.\n` : `${NO_CHROMIUM}\n`,
    );
    return 2;
  }
  try {
    await runScreens({
      chromium,
      outDir: path.resolve(values.out ?? DOCS_PICTURES),
      ...(only ? { only } : {}),
      ...(startsAt ? { startsAt } : {}),
    });
    return 0;
  } catch (error) {
    process.stderr.write(`docs:screens failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await main(process.argv.slice(2));
}
