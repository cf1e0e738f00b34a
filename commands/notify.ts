/**
 * /notify on|off|show [what]: personal DMs "your start time is out", "your result is in" and the
 * day-before reminder for the member's linked Eventor persons (src/feeds/kinds/personal/personal.ts sends
 * them), and on race day "you finished" from the live results (src/feeds/kinds/live/poller.ts). Only
 * for linked members. The reminder and the live finish are opt-in: `on` without `what` turns on start times
 * and results only, while `off` without `what` turns everything off.
 * Turning DMs on sends one confirmation DM, so closed DMs show up now rather than on race day;
 * a refusal pauses the DMs, `/notify show` says so, and `/notify on` again clears it.
 */
import {
  ApplicationIntegrationType,
  DiscordAPIError,
  InteractionContextType,
  Routes,
  type SlashCommandStringOption,
} from 'discord.js';
import { type BotCommand, type CommandContext, UserFacingError } from '../src/bot/command.js';
import { localize, localizedChoice, localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { personNames, when } from '../src/bot/members.js';
import { openDmChannel } from '../src/feeds/kinds/personal/personal.js';
import { NOTIFY_KINDS, type NotifyKind, type Subscription, type Subscriptions } from '../src/feeds/subscriptions.js';
import { type Language, languageFor, t } from '../src/i18n/index.js';
import { escapeName } from '../src/render/index.js';

type What = 'all' | NotifyKind;
const WHATS: readonly What[] = ['all', ...NOTIFY_KINDS];
const DMS_CLOSED = 50007;

const whatOption = (o: SlashCommandStringOption) =>
  localize(o, 'notify.option.what.name', 'notify.option.what.description').addChoices(
    ...WHATS.map((w) => localizedChoice(`notify.choice.${w}`, w)),
  );

const definition = localizedCommand('notify.name', 'notify.description')
  .setContexts(InteractionContextType.Guild)
  .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
  .addSubcommand((sub) => localize(sub, 'notify.on.name', 'notify.on.description').addStringOption(whatOption))
  .addSubcommand((sub) => localize(sub, 'notify.off.name', 'notify.off.description').addStringOption(whatOption))
  .addSubcommand((sub) => localize(sub, 'notify.show.name', 'notify.show.description'))
  .toJSON();

/** The option as given; anything but a known choice (a stale client, a hand-made request) is refused. */
function whatOf(ctx: CommandContext): What {
  const given = ctx.interaction.options.getString('what') ?? 'all';
  if (!(WHATS as readonly string[]).includes(given)) throw new UserFacingError('error.unexpected');
  return given as What;
}

/** The kinds `what` names: `all` is start times and results when turning on, everything when turning off. */
function kindsOf(what: What, on: boolean): NotifyKind[] {
  if (what !== 'all') return [what];
  return on ? ['starts', 'results'] : [...NOTIFY_KINDS];
}

/** The subscription change that turns the kinds `what` names on or off. */
function switchedTo(what: What, on: boolean): Partial<Record<NotifyKind, boolean>> {
  return Object.fromEntries(kindsOf(what, on).map((k) => [k, on]));
}

/** The DMs that are on, in words: "start-time and result DMs, day-before reminders". */
function whatIsOn(language: Language, sub: Subscription): string {
  const parts: string[] = [];
  if (sub.starts && sub.results) parts.push(t(language, 'notify.what.all'));
  else if (sub.starts) parts.push(t(language, 'notify.what.starts'));
  else if (sub.results) parts.push(t(language, 'notify.what.results'));
  if (sub.tomorrow) parts.push(t(language, 'notify.what.tomorrow'));
  if (sub.live) parts.push(t(language, 'notify.what.live'));
  return parts.join(', ');
}

async function statusText(
  ctx: CommandContext,
  sub: Subscription | null,
  personIds: readonly string[],
): Promise<string> {
  if (!sub) return personIds.length > 0 ? ctx.t('notify.status.none') : ctx.t('notify.notLinked');
  const state = (on: boolean) => ctx.t(on ? 'notify.state.on' : 'notify.state.off');
  const lines = [
    ctx.t('notify.status.title'),
    ctx.t('notify.status.starts', { state: state(sub.starts) }),
    ctx.t('notify.status.results', { state: state(sub.results) }),
    ctx.t('notify.status.tomorrow', { state: state(sub.tomorrow) }),
    ctx.t('notify.status.live', { state: state(sub.live) }),
  ];
  if (personIds.length > 0) {
    const names = await personNames(ctx, personIds);
    lines.push(ctx.t('notify.status.persons', { persons: personIds.map((id) => names.get(id)!).join(', ') }));
  } else {
    lines.push(ctx.t('notify.linkGone'));
  }
  if (sub.pausedReason !== null)
    lines.push(
      '',
      ctx.t(`notify.status.paused.${sub.pausedReason}`, { when: when(sub.pausedAt ?? sub.updatedAt, 'f') }),
    );
  lines.push('', ctx.t('notify.status.hint'));
  if (sub.tomorrow) lines.push(ctx.t('notify.status.hintTomorrow'));
  return lines.join('\n');
}

/** The confirmation DM; what went wrong, if anything, for the reply. */
async function welcome(
  ctx: CommandContext,
  subscriptions: Subscriptions,
  sub: Subscription,
): Promise<'sent' | 'refused' | 'failed'> {
  const guildId = sub.guildId;
  const userId = sub.userId;
  const language = languageFor(sub.locale);
  const what = whatIsOn(language, sub);
  const server = ctx.interaction.guild?.name ?? (await ctx.services.setup.settings(guildId))?.organisationName ?? '';
  const client = ctx.interaction.client;
  try {
    const channelId = sub.dmChannelId ?? (await openDmChannel(client, userId));
    if (channelId !== sub.dmChannelId) await subscriptions.setDmChannel(guildId, userId, channelId);
    await client.rest.post(Routes.channelMessages(channelId), {
      body: {
        content: t(language, 'notify.welcome.dm', { server: escapeName(server), what }),
        allowed_mentions: { parse: [] },
      },
    });
    return 'sent';
  } catch (error) {
    // Only the code: Discord's error carries the request body.
    const code = error instanceof DiscordAPIError ? error.code : null;
    if (error instanceof DiscordAPIError && (error.code === DMS_CLOSED || error.status === 403)) {
      await subscriptions.pause(guildId, userId, 'dms-closed');
      ctx.log.info('personal DMs paused at /notify on: Discord refused the confirmation', { code });
      return 'refused';
    }
    ctx.log.warn('could not send the /notify confirmation DM', { code });
    return 'failed';
  }
}

/** The member a /notify subcommand answers: their subscriptions' store, server, user and linked persons. */
interface Asker {
  subscriptions: Subscriptions;
  guildId: string;
  userId: string;
  personIds: readonly string[];
}

async function turnOn(ctx: CommandContext, { subscriptions, guildId, userId, personIds }: Asker): Promise<string> {
  if (personIds.length === 0) throw new UserFacingError('notify.notLinked');
  const what = whatOf(ctx);
  const before = await subscriptions.get(guildId, userId);
  const sub = (await subscriptions.set(guildId, userId, switchedTo(what, true), ctx.interaction.locale))!;
  const news = !before || before.pausedReason !== null || kindsOf(what, true).some((k) => !before[k]);
  const outcome = news ? await welcome(ctx, subscriptions, sub) : 'sent';
  const lines = [ctx.t('notify.turnedOn', { what: ctx.t(`notify.what.${what}`) })];
  if (outcome === 'refused') lines.push(ctx.t('notify.welcome.refused'));
  if (outcome === 'failed') lines.push(ctx.t('notify.welcome.failed'));
  lines.push('', await statusText(ctx, await subscriptions.get(guildId, userId), personIds));
  return lines.join('\n');
}

async function turnOff(ctx: CommandContext, { subscriptions, guildId, userId, personIds }: Asker): Promise<string> {
  const what = whatOf(ctx);
  const before = await subscriptions.get(guildId, userId);
  const sub = before ? await subscriptions.set(guildId, userId, switchedTo(what, false), ctx.interaction.locale) : null;
  return [
    ctx.t('notify.turnedOff', { what: ctx.t(what === 'all' ? 'notify.what.everything' : `notify.what.${what}`) }),
    '',
    await statusText(ctx, sub, personIds),
  ].join('\n');
}

type NotifySubcommand = (ctx: CommandContext, asker: Asker) => Promise<string>;

/** A subcommand with the member's subscription and linked persons at hand; its text is the answer. */
const answering =
  (run: NotifySubcommand) =>
  async (ctx: CommandContext): Promise<void> => {
    const guildId = guildOf(ctx);
    const userId = ctx.interaction.user.id;
    const subscriptions = ctx.services.subscriptions;
    const personIds = (await ctx.services.linking.linkedPersons(guildId, userId)).map((l) => l.personId);
    const content = await run(ctx, { subscriptions, guildId, userId, personIds });
    await ctx.answer({ content, allowedMentions: { parse: [] } });
  };

export const notifyCommand: BotCommand = {
  definition,
  defer: 'ephemeral',
  subcommands: {
    on: answering(turnOn),
    off: answering(turnOff),
    show: answering(async (ctx, { subscriptions, guildId, userId, personIds }) =>
      statusText(ctx, await subscriptions.get(guildId, userId), personIds),
    ),
  },
};
