/**
 * The Discord half of the demo: both sandboxes in this process, the real bot as its own process
 * (`eventor-bot start`, configured only through its environment, as an operator would), and a
 * scripted session of members using the commands. Prints what Discord would show.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { ComponentType } from 'discord.js';
import { COMMANDS } from '../../commands/index.js';
import { deployCommands } from '../../src/bot/deploy.js';
import { clockFrom } from '../../src/config/sandbox-clock.js';
import {
  type ApiComponent,
  type InteractionHandle,
  type MessageView,
  type ModalData,
  renderInteractionText,
  renderMessageText,
  renderTimestamps,
  type SandboxDiscord,
  startSandboxDiscord,
  type TimestampReader,
} from '../sandbox/discord/index.js';
import type { SandboxUser } from '../sandbox/discord/types.js';
import type { SandboxDataset, SandboxEvent } from '../sandbox/eventor/dataset.js';
import { startSandboxEventor } from '../sandbox/eventor/server.js';
import type { DemoPictures } from './pictures.js';

/** Ids from the sandbox's data that the scripted steps refer to, and what the people in it type. */
export interface DemoFacts {
  upcomingEventId: string;
  startListEventId: string;
  resultsEventId: string;
  activityId: string;
  /** The member who links with their Eventor user name and password: an adult. */
  linkedPersonId: string;
  linkedUsername: string;
  linkedPassword: string;
  /** Her name as the club's member list has it ("Given Family"). */
  linkedName: string;
  /** The home club's Eventor API key, which the admin types into /setup eventor's form. */
  apiKey: string;
}

/** Where the session runs: the sandbox Eventor's address and the server's channels by name. */
export interface DemoPlace {
  eventorBaseUrl: string;
  channelIds: Readonly<Record<'allmänt' | 'resultat', string>>;
}

/** A value typed into a form; a secret one is shown masked in the transcript. */
export interface FormValue {
  value: string;
  secret?: boolean;
}

export interface DemoStep {
  who: 'member' | 'swedishMember' | 'admin';
  locale: string;
  name: string;
  subcommand?: string;
  options?: (facts: DemoFacts, place: DemoPlace) => Record<string, string | number | boolean>;
  /** The command opens a form; this is what is typed into it, by the text input's custom id. */
  form?: (facts: DemoFacts) => Record<string, FormValue>;
  /** Show the direct message the bot sent the member (one-time links masked). */
  showDm?: boolean;
  /**
   * An option the member types into and Discord completes (autocomplete): the bot's suggestions
   * are shown, and the first one is what the command is run with.
   */
  autocomplete?: { option: string; typed: (facts: DemoFacts) => string };
  /** What the member then does with the answer's buttons and menus, in order. */
  then?: readonly DemoAction[];
  /**
   * The command fails on the member's own mistake after the bot said "thinking…" in public: the
   * placeholder goes and a private follow-up says why (src/bot/router.ts).
   */
  followUp?: boolean;
}

/** A click on the answer's button with this label, or a pick in its menu whose placeholder starts so. */
export type DemoAction =
  { click: string } | { select: string; value: (facts: DemoFacts, options: readonly string[]) => string };

/**
 * A person types a command or fills in a form every couple of seconds, not ten a second: faster,
 * and the bot's budget per member (router.ts: 10 in 20 s) would rightly ask them to slow down.
 */
const TYPING_GAP_MS = 2_000;

/** What the transcript shows for a secret typed into a form: the same for every secret, so not even its length shows. */
export const MASKED = '••••••••';

/** The package's own program, found from here whether this runs compiled (dist/) or from source. */
function programPath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'bin', 'eventor-bot.js');
    if (existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('cannot find bin/eventor-bot.js above the demo');
}

/**
 * Discord shows `<t:…>` in the reader's language and zone, and `<#id>`, `<@id>` as names; so does
 * the transcript. The reader's locale is the Discord locale of the member who reads the message.
 */
export function humanize(text: string, reader: TimestampReader, names: ReadonlyMap<string, string>): string {
  return renderTimestamps(text, reader)
    .replace(/<#(\d+)>/g, (whole, id: string) => (names.has(id) ? `#${names.get(id)}` : whole))
    .replace(/<@!?(\d+)>/g, (whole, id: string) => (names.has(id) ? `@${names.get(id)}` : whole));
}

async function waitForReady(bot: ChildProcess, timeoutMs: number, stderr: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the bot did not log in within ${timeoutMs / 1000} s`)), timeoutMs);
    const onData = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      stderr.push(text);
      if (text.includes('"msg":"bot ready"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    bot.stderr?.on('data', onData);
    bot.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bot exited with code ${code} before it was ready:\n${stderr.join('').slice(-2000)}`));
    });
  });
}

export interface BotSessionOptions {
  /**
   * The instant the session's clock starts from (default: now): the sandboxes' data is made around
   * it and their clocks run on from it at real speed, and so does the bot's (SANDBOX_CLOCK).
   */
  startsAt?: Date;
  /** Told the sandbox data as the session starts. */
  onDataset?: (dataset: SandboxDataset) => void;
  /** Where the files attached to the answers shown are written (the transcript names each). */
  pictures?: DemoPictures;
}

export async function runBotSession(
  steps: readonly DemoStep[],
  write: (line: string) => void,
  options: BotSessionOptions = {},
): Promise<{ answered: number; total: number }> {
  const clock = clockFrom(options.startsAt ?? new Date());
  const eventor = await startSandboxEventor({ port: 0, now: clock });
  options.onDataset?.(eventor.dataset);
  const discord: SandboxDiscord = await startSandboxDiscord({ port: 0, now: () => clock().getTime() });
  const dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-demo-'));
  let bot: ChildProcess | null = null;
  let answered = 0;
  try {
    const guild = discord.createGuild({ name: eventor.dataset.homeClub.name, preferredLocale: 'sv-SE' });
    const channel = discord.createTextChannel(guild.id, { name: 'allmänt' });
    const results = discord.createTextChannel(guild.id, { name: 'resultat' });
    const facts = demoFacts(eventor.dataset, clock().getTime());
    // The member who links is on Discord under her own first name, as the person she links to.
    const given = eventor.dataset.person(facts.linkedPersonId)!.person.name.given;
    const users: Record<DemoStep['who'], SandboxUser> = {
      member: discord.createMember(guild.id, { username: discordName(given), globalName: given, locale: 'en-GB' }),
      swedishMember: discord.createMember(guild.id, { username: 'sven', globalName: 'Sven', locale: 'sv-SE' }),
      admin: discord.createMember(guild.id, {
        username: 'kassoren',
        globalName: 'Kassören',
        locale: 'sv-SE',
        manageGuild: true,
      }),
    };
    // What Discord shows for <#channel> and <@user> mentions.
    const channelNames = new Map<string, string>([
      [channel.id, channel.name ?? 'allmänt'],
      [results.id, results.name ?? 'resultat'],
      ...Object.values(users).map((u): [string, string] => [u.id, u.username]),
    ]);
    await deployCommands({ token: discord.token, apiUrl: discord.restUrl, commands: COMMANDS, guildId: guild.id });
    const place: DemoPlace = {
      eventorBaseUrl: eventor.baseUrl,
      channelIds: { allmänt: channel.id, resultat: results.id },
    };
    const databasePath = path.join(dir, 'eventor-bot.sqlite');
    const secretKey = 'demo-secret-key-not-for-production-use';

    const stderr: string[] = [];
    // No Eventor of the operator's own: the server's admin connects it with /setup eventor and the
    // club's key, to the sandbox Eventor, which the operator allows as an Eventor of its own.
    bot = spawn(process.execPath, [programPath(), 'start'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        PATH: process.env.PATH ?? '',
        DISCORD_TOKEN: discord.token,
        DISCORD_API_URL: discord.restUrl,
        EVENTOR_CUSTOM_URLS: eventor.baseUrl,
        DATABASE_PATH: databasePath,
        SECRET_KEY: secretKey,
        DEFAULT_TIME_ZONE: 'Europe/Stockholm',
        LOG_LEVEL: 'info',
        SANDBOX_CLOCK: clock().toISOString(),
      },
    });
    await waitForReady(bot, 30_000, stderr);
    write(
      `The bot runs as its own process (pid ${bot.pid}), logged in to the sandbox Discord; server "${guild.name}", channel #${channelNames.get(channel.id)}.`,
    );

    /** Option values Discord shows by the name of the suggestion they came from. */
    const shownValues = new Map<string, string>();
    const lastTyped = new Map<string, number>();
    const typing = async (user: SandboxUser): Promise<void> => {
      const wait = (lastTyped.get(user.id) ?? 0) + TYPING_GAP_MS - Date.now();
      if (wait > 0) await sleep(wait);
      lastTyped.set(user.id, Date.now());
    };
    for (const step of steps) {
      const user = users[step.who];
      const dmsBefore = discord.dms(user).length;
      await typing(user);
      const chosen = step.options ? step.options(facts, place) : {};
      const invocation = {
        guildId: guild.id,
        channelId: channel.id,
        user,
        locale: step.locale,
        name: step.name,
        ...(step.subcommand ? { subcommand: step.subcommand } : {}),
      };
      if (step.autocomplete) {
        // Discord asks the bot for suggestions as the member types; she takes the first one.
        const typed = step.autocomplete.typed(facts);
        const choices = await discord.autocomplete({
          ...invocation,
          options: chosen,
          focused: step.autocomplete.option,
          value: typed,
          timeoutMs: 20_000,
        });
        write(
          `\n── ${user.username} types "${typed}" into /${step.name} ${step.autocomplete.option}: Discord suggests ${choices.map((c) => `"${c.name}"`).join(', ') || 'nothing'}  [${step.locale}]`,
        );
        if (choices.length === 0) {
          write('   NO ANSWER: no suggestions');
          continue;
        }
        chosen[step.autocomplete.option] = choices[0]!.value;
        // Discord shows the chosen suggestion by its name in the command line.
        shownValues.set(String(choices[0]!.value), choices[0]!.name);
        await typing(user);
      }
      const handle = discord.runCommand({ ...invocation, options: chosen });
      let line = renderInteractionText(handle.payload);
      // A channel option is the channel's id; Discord shows its name.
      for (const [name, id] of Object.entries(place.channelIds))
        line = line.replace(`channel: ${id}`, `channel: #${name}`);
      for (const [value, name] of shownValues) line = line.replace(`: ${value}`, `: ${name}`);
      write(`\n── ${line}  [${step.locale}]`);
      try {
        let answering = handle;
        if (step.form) {
          // The form's fields typed in; the transcript shows a secret one masked, never its value.
          const modal = await handle.waitForModal({ timeoutMs: 20_000 });
          const typed = step.form(facts);
          await typing(user);
          answering = discord.submitModal({
            user,
            locale: step.locale,
            customId: modal.custom_id,
            fields: Object.fromEntries(Object.entries(typed).map(([id, field]) => [id, field.value])),
          });
          write(`\n── ${user.username} filled in the form ${formText(modal, typed)}  [${step.locale}]`);
        }
        // The member who ran the command reads the answer, in their own Discord language.
        const reader: TimestampReader = { locale: step.locale, timeZone: 'Europe/Stockholm', now: clock().getTime() };
        const shown = (message: MessageView): string =>
          indent(humanize(renderMessageText(message, { reader }), reader, channelNames));
        let reply = await answering.reply({ timeoutMs: 20_000 });
        if (step.followUp) {
          // The public "thinking…" was taken away; what the member reads is the follow-up.
          if (!reply.deleted) throw new Error('the bot answered in place, not with a follow-up');
          reply = (await answering.waitForFollowUps(1, { timeoutMs: 20_000 }))[0]!;
          write(`   (the bot's public "thinking…" is gone; a follow-up:)`);
        }
        write(shown(reply));
        const saved = (what: string, files: MessageView['attachments']): void => {
          if (options.pictures && files.length > 0) write(indent(options.pictures.save(what, files)));
        };
        saved(`part2-${steps.indexOf(step) + 1}-${step.name}`, reply.attachments);
        for (const action of step.then ?? []) {
          await typing(user);
          const [what, next] = act(discord, user, step.locale, reply, action, facts);
          write(`\n── ${user.username} ${what} under the answer  [${step.locale}]`);
          const answer = await next.answer({ timeoutMs: 20_000 });
          write(shown(answer));
          saved(`part2-${steps.indexOf(step) + 1}-${step.name}-${step.then!.indexOf(action) + 1}`, answer.attachments);
          // A click that updates the message leaves the next action to that message.
          if (answer.id === reply.id || !answer.ephemeral || answer.components.length > 0) reply = answer;
        }
        if (step.showDm) {
          await discord.waitForDm(user, () => discord.dms(user).length > dmsBefore, { timeoutMs: 20_000 });
          const dm = discord.dms(user).at(-1)!;
          write(`\n── direct message to ${user.username}:`);
          write(indent(maskLoginLinks(humanize(renderMessageText(dm, { reader }), reader, channelNames))));
          saved(`part2-${steps.indexOf(step) + 1}-dm`, dm.attachments);
        }
        answered++;
      } catch (error) {
        write(`   NO ANSWER: ${(error as Error).message}`);
      }
    }
  } finally {
    if (bot && bot.exitCode === null) {
      const exited = new Promise((resolve) => bot!.once('exit', resolve));
      bot.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (bot.exitCode === null) bot.kill('SIGKILL');
    }
    await discord.close();
    await eventor.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { answered, total: steps.length };
}

/** The components of a message, rows and containers opened up. */
function componentsOf(components: readonly ApiComponent[]): ApiComponent[] {
  return components.flatMap((c) => [
    c,
    ...componentsOf(c.components ?? []),
    ...(c.accessory ? [c.accessory] : []),
    ...(c.component ? [c.component] : []),
  ]);
}

/** Does one action to a message: a line for the transcript, and the interaction it started. */
function act(
  discord: SandboxDiscord,
  user: SandboxUser,
  locale: string,
  message: MessageView,
  action: DemoAction,
  facts: DemoFacts,
): [string, InteractionHandle] {
  const all = componentsOf(message.components);
  if ('click' in action) {
    const button = all.find((c) => c.type === ComponentType.Button && c.label === action.click && c.custom_id);
    if (!button) throw new Error(`the answer has no button "${action.click}"`);
    return [
      `clicked [${action.click}]`,
      discord.clickButton({ message: message.id, customId: button.custom_id!, user, locale }),
    ];
  }
  const menu = all.find((c) => c.type === ComponentType.StringSelect && c.placeholder?.startsWith(action.select));
  if (!menu?.custom_id) throw new Error(`the answer has no menu "${action.select}…"`);
  const value = action.value(
    facts,
    (menu.options ?? []).map((o) => o.value),
  );
  const label = menu.options?.find((o) => o.value === value)?.label ?? value;
  return [
    `picked "${label}" in the menu "${menu.placeholder}"`,
    discord.selectMenu({ message: message.id, customId: menu.custom_id, values: [value], user, locale }),
  ];
}

/** Picks, from the sandbox's data, events and a member that make every command show something. */
export function demoFacts(dataset: SandboxDataset, now: number): DemoFacts {
  const home = dataset.homeClub.id;
  const startOf = (e: SandboxEvent) => Date.parse(e.event.start ?? '');
  const clubIn = (e: SandboxEvent, list: 'startList' | 'resultList') =>
    (dataset.details(e)[list]?.classes ?? []).some((c) => c.persons.some((p) => p.organisation?.id === home));
  const upcoming = dataset.events
    .filter((e) => startOf(e) > now && e.event.status !== 'canceled')
    .sort((a, b) => startOf(a) - startOf(b));
  const withEntries =
    upcoming.find((e) => dataset.entriesAt(e).some((x) => x.competitor?.organisation?.id === home)) ?? upcoming[0];
  const withStarts = upcoming.find((e) => dataset.hasStartList(e.id) && clubIn(e, 'startList'));
  const past = dataset.events
    .filter(
      (e) => startOf(e) < now && dataset.hasResults(e.id) && e.event.races.length === 1 && clubIn(e, 'resultList'),
    )
    .sort((a, b) => startOf(b) - startOf(a));
  const results = past[0];
  if (!withEntries || !withStarts || !results) throw new Error('the sandbox data lacks an event the demo needs');
  // The member who links and asks for a login link in the demo is an adult (a child's Eventor
  // account is a parent's to link).
  const adult = (birthDate: string | null | undefined): boolean =>
    birthDate != null && yearsOld(birthDate, now) >= ADULT_AGE;
  const adults = dataset
    .details(results)
    .resultList!.classes.flatMap((c) => c.persons)
    .filter((p) => p.organisation?.id === home && p.person?.id && adult(p.person.birthDate));
  // One with competitor settings in Eventor, so that /card has her chip to show.
  const runner = adults.find((p) => dataset.person(p.person!.id!)?.hasSettings) ?? adults[0];
  const activity =
    dataset.activities.find((a) => a.organisationId === home && Date.parse(a.startTime ?? '') > now) ??
    dataset.activities[0];
  if (!runner?.person?.id || !activity)
    throw new Error('the sandbox data lacks a member or an activity the demo needs');
  const linked = dataset.person(runner.person.id);
  if (!linked) throw new Error(`the sandbox has no person ${runner.person.id}`);
  return {
    upcomingEventId: withEntries.id,
    startListEventId: withStarts.id,
    resultsEventId: results.id,
    activityId: activity.id,
    linkedPersonId: runner.person.id,
    linkedUsername: linked.username,
    linkedPassword: linked.password,
    linkedName: `${linked.person.name.given} ${linked.person.name.family}`,
    apiKey: dataset.keyFor(dataset.homeClub.id),
  };
}

/** A Discord user name made of a first name ("Åsa" -> "asa"). */
export function discordName(given: string): string {
  return (
    given
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9]+/g, '') || 'member'
  );
}

/** The age from which the demo's member counts as an adult (the senior classes, D21 and H21). */
export const ADULT_AGE = 21;

/** Whole years from a birth date (YYYY-MM-DD) to an instant. */
export function yearsOld(birthDate: string, at: number): number {
  const today = new Date(at).toISOString().slice(0, 10);
  const years = Number(today.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return today.slice(5) < birthDate.slice(5, 10) ? years - 1 : years;
}

/**
 * A filled-in form as one transcript line: its title, then each field's label and what was typed,
 * a secret masked ("Eventor password: ••••••••").
 */
export function formText(modal: ModalData, typed: Readonly<Record<string, FormValue>>): string {
  const labels = new Map<string, string>();
  for (const c of modal.components) {
    // A label around its input, or a legacy row of inputs that carry their own labels.
    if (c.component?.custom_id) labels.set(c.component.custom_id, c.label ?? c.component.custom_id);
    for (const input of c.components ?? [])
      if (input.custom_id) labels.set(input.custom_id, input.label ?? input.custom_id);
  }
  const fields = Object.entries(typed).map(
    ([id, field]) => `${labels.get(id) ?? id}: ${field.secret ? MASKED : field.value}`,
  );
  return `"${modal.title}" (${fields.join('; ')})`;
}

/** Login links log their holder in: even the sandbox's are not printed. */
function maskLoginLinks(text: string): string {
  return text.replace(/https?:\/\/\S+\/login\/[A-Za-z0-9_-]+/g, '(one-time login link)');
}

/** The transcript's indentation of what Discord shows. */
export function indent(lines: string | readonly string[], by = '   '): string {
  return (typeof lines === 'string' ? lines.split('\n') : lines).map((line) => `${by}${line}`).join('\n');
}
