/**
 * `/feeds` (Manage Server only, declared for the router to check): for each kind of automatic post, on/off,
 * pause/resume, a role to mention, reminder lead times, quiet hours, the new-events filter, a
 * thread per results post, a test post of the newest item, and an overview. Writes `FeedSettingsStore` (src/feeds/settings.ts) and,
 * for `on <kind> channel:`, the channel of `/setup channel`. Every answer is ephemeral, and a refused
 * input changes nothing.
 */
import { type ChannelType, EmbedBuilder, type SlashCommandStringOption } from 'discord.js';
import type { FeedsAdmin } from '../src/app/feeds-admin.js';
import { type BotCommand, type CommandContext, UserFacingError } from '../src/bot/command.js';
import { localize, localizedChoice, serverAdminCommand } from '../src/bot/define.js';
import { CLASSIFICATION_IDS, classificationOfId, EVENT_CLASSIFICATIONS } from '../src/eventor/model.js';
import {
  channelState,
  eventPermissionState,
  missingEventPermissions,
  missingThreadPermissions,
  POSTABLE_TYPES,
  requireCanPost,
} from '../src/feeds/delivery/post-channels.js';
import { discordTarget } from '../src/feeds/delivery/poster.js';
import {
  FEED_KINDS,
  type FeedKind,
  type FeedSettings,
  isFeedKind,
  kindHasChannel,
  type PauseReason,
} from '../src/feeds/settings.js';
import { LANGUAGES, type PlainKey } from '../src/i18n/index.js';
import { classificationText, discordTimestamp } from '../src/render/index.js';

/** The ledger's feed name of `/feeds test` posts: they never meet a real feed's items. */
// Where tests and the scheduler look for it; it belongs to the service.
export { TEST_FEED } from '../src/app/feeds-admin.js';
export const MAX_LEAD_DAYS = 5;
/** The digest's days, ISO numbering (1 Monday to 7 Sunday), as `FeedOptions.digestDay` holds them. */
const DIGEST_DAYS = [1, 2, 3, 4, 5, 6, 7] as const;
export const LEAD_DAY_MAX = 60;

const kindOption =
  (required: boolean, descriptionKey: PlainKey = 'feeds.opt.kind.description') =>
  (o: SlashCommandStringOption) =>
    localize(o, 'feeds.opt.kind.name', descriptionKey)
      .setRequired(required)
      .addChoices(...FEED_KINDS.map((k) => localizedChoice(`setup.kind.${k}`, k)));

/** The kinds whose events the levels filter widens: new events, and the races in the server's Events. */
const FILTER_KINDS = ['events', 'calendar'] as const satisfies readonly FeedKind[];

const definition = serverAdminCommand('feeds.name', 'feeds.description')
  .addSubcommand((sub) =>
    localize(sub, 'feeds.on.name', 'feeds.on.description')
      .addStringOption(kindOption(true))
      .addChannelOption((o) =>
        localize(o, 'feeds.opt.channel.name', 'feeds.opt.channel.description').addChannelTypes(...POSTABLE_TYPES),
      ),
  )
  .addSubcommand((sub) => localize(sub, 'feeds.off.name', 'feeds.off.description').addStringOption(kindOption(true)))
  .addSubcommand((sub) =>
    localize(sub, 'feeds.pause.name', 'feeds.pause.description').addStringOption(kindOption(true)),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.resume.name', 'feeds.resume.description').addStringOption(kindOption(true)),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.role.name', 'feeds.role.description')
      .addStringOption(kindOption(true))
      .addRoleOption((o) => localize(o, 'feeds.opt.role.name', 'feeds.opt.role.description')),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.reminders.name', 'feeds.reminders.description')
      .addStringOption((o) => localize(o, 'feeds.opt.leadDays.name', 'feeds.opt.leadDays.description').setMaxLength(40))
      .addBooleanOption((o) => localize(o, 'feeds.opt.lateEntry.name', 'feeds.opt.lateEntry.description')),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.quiet.name', 'feeds.quiet.description')
      .addIntegerOption((o) =>
        localize(o, 'feeds.opt.from.name', 'feeds.opt.from.description').setMinValue(0).setMaxValue(23),
      )
      .addIntegerOption((o) =>
        localize(o, 'feeds.opt.to.name', 'feeds.opt.to.description').setMinValue(0).setMaxValue(23),
      )
      .addStringOption(kindOption(false, 'feeds.opt.quietKind.description')),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.filter.name', 'feeds.filter.description')
      .addStringOption((o) => localize(o, 'feeds.opt.levels.name', 'feeds.opt.levels.description').setMaxLength(200))
      .addStringOption((o) =>
        localize(o, 'feeds.opt.kind.name', 'feeds.opt.filterKind.description').addChoices(
          ...FILTER_KINDS.map((k) => localizedChoice(`setup.kind.${k}`, k)),
        ),
      ),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.threads.name', 'feeds.threads.description').addStringOption((o) =>
      localize(o, 'feeds.opt.state.name', 'feeds.opt.state.description')
        .setRequired(true)
        .addChoices(localizedChoice('feeds.show.on', 'on'), localizedChoice('feeds.show.off', 'off')),
    ),
  )
  .addSubcommand((sub) =>
    localize(sub, 'feeds.digest.name', 'feeds.digest.description')
      .addStringOption((o) =>
        localize(o, 'feeds.opt.day.name', 'feeds.opt.day.description').addChoices(
          ...DIGEST_DAYS.map((day) => localizedChoice(`feeds.day.${day}`, String(day))),
        ),
      )
      .addStringOption((o) => localize(o, 'feeds.opt.time.name', 'feeds.opt.time.description').setMaxLength(10)),
  )
  .addSubcommand((sub) => localize(sub, 'feeds.test.name', 'feeds.test.description').addStringOption(kindOption(true)))
  .addSubcommand((sub) => localize(sub, 'feeds.show.name', 'feeds.show.description'))
  .toJSON();

// ------------------------------------------------------------------------------------------------
// Parsing (pure, exported for unit tests)

/**
 * The count that picks the plural form of "{days} days before": "1 day" only for the single lead
 * time 1; a list ("7, 1 days") or none ("– days") takes the plural.
 */
export function leadDaysCount(days: readonly number[]): number {
  return days.length === 1 ? days[0]! : Math.max(days.length, 2);
}

/** `7,1` → [7, 1] (unique, largest first); null when not up to 5 whole numbers 0-60. */
export function parseLeadDays(input: string): number[] | null {
  const parts = input.split(/[,;\s]+/).filter((p) => p !== '');
  if (parts.length === 0 || parts.length > MAX_LEAD_DAYS) return null;
  const days: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,2}$/.test(part)) return null;
    const n = Number(part);
    if (n > LEAD_DAY_MAX) return null;
    if (!days.includes(n)) days.push(n);
  }
  return days.sort((a, b) => b - a);
}

/** `18:00`, `18.00`, `1800`, `8:30` or `18` → `HH:MM`; null when it is not a time of day. */
export function parseDigestTime(input: string): string | null {
  const match = /^(\d{1,2})(?:[:.h]?(\d{2}))?$/.exec(input.trim());
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = match[2] === undefined ? 0 : Number(match[2]);
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

function normal(text: string): string {
  return text.normalize('NFKC').toLowerCase().trim();
}

/**
 * `1,national,Distriktstävling` → ['1', '2', '3'] (sorted, unique): numbers 1-6, Eventor's names,
 * or the level names of any of our languages; `{ bad }` names the first part that is none of them.
 */
export function parseLevels(input: string): string[] | { bad: string } {
  const parts = input
    .split(/[,;]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const ids = new Set<string>();
  for (const part of parts) {
    const wanted = normal(part);
    const id = CLASSIFICATION_IDS.find((candidate) => {
      const name = EVENT_CLASSIFICATIONS[candidate];
      return (
        wanted === candidate ||
        wanted === name ||
        LANGUAGES.some((language) => normal(classificationText(name, language)) === wanted)
      );
    });
    if (!id) return { bad: part };
    ids.add(id);
  }
  return [...ids].sort();
}

// ------------------------------------------------------------------------------------------------
// Helpers

function kindOf(ctx: CommandContext): FeedKind {
  const kind = ctx.interaction.options.getString('kind', true);
  if (!isFeedKind(kind)) throw new UserFacingError('error.unexpected');
  return kind;
}

function kindLabel(ctx: CommandContext, kind: FeedKind): string {
  return ctx.t(`setup.kind.${kind}`);
}

function reasonText(ctx: CommandContext, reason: PauseReason): string {
  return ctx.t(`feeds.reason.${reason}`);
}

function levelLabel(ctx: CommandContext, id: string): string {
  const name = classificationOfId(id);
  return name === 'unknown' ? id : classificationText(name, ctx.language);
}

async function reply(ctx: CommandContext, content: string): Promise<void> {
  await ctx.answer({ content, embeds: [], components: [] });
}

// ------------------------------------------------------------------------------------------------
// Subcommands

async function turnOn(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx);
  if (!kindHasChannel(kind)) return turnOnWithoutChannel(ctx, settings, guildId, kind);
  const option = ctx.interaction.options.getChannel('channel');
  const current = await settings.get(guildId, kind);
  const channelId = option?.id ?? current.channelId;
  if (channelId === null) throw new UserFacingError('feeds.noChannel', { kind: kindLabel(ctx, kind) });
  if (option && !(POSTABLE_TYPES as readonly ChannelType[]).includes(option.type))
    throw new UserFacingError('setup.channel.wrongType');
  await requireCanPost(ctx, ctx.interaction.guild, channelId);
  // The channel and the switch together, or neither.
  const after = await settings.turnOn(guildId, kind, option?.id ?? null);
  // Back on after a time off, the digest starts from its next time, as on the first turn-on.
  if (kind === 'digest' && !current.enabled) await settings.setDigestWhen(guildId, {}, ctx.guild.timeZone);
  const lines = [ctx.t('feeds.on.done', { kind: kindLabel(ctx, kind), channel: `<#${channelId}>` })];
  if (after.pausedReason) lines.push(ctx.t('feeds.on.stillPaused', { reason: reasonText(ctx, after.pausedReason) }));
  await reply(ctx, lines.join(' '));
}

/** A kind without a channel (the server's Events): on at once, with what the bot still lacks to do it. */
async function turnOnWithoutChannel(
  ctx: CommandContext,
  settings: FeedsAdmin,
  guildId: string,
  kind: FeedKind,
): Promise<void> {
  const after = await settings.turnOn(guildId, kind, null);
  const lines = [ctx.t('feeds.calendar.on', { kind: kindLabel(ctx, kind) })];
  const missing = await missingEventPermissions(ctx.interaction.guild);
  if (missing && missing.length > 0)
    lines.push(ctx.t('feeds.calendar.missing', { permissions: missing.map((key) => ctx.t(key)).join(', ') }));
  if (after.pausedReason) lines.push(ctx.t('feeds.on.stillPaused', { reason: reasonText(ctx, after.pausedReason) }));
  await reply(ctx, lines.join(' '));
}

async function turnOff(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx);
  await settings.update(guildId, kind, { enabled: false });
  await reply(ctx, ctx.t('feeds.off.done', { kind: kindLabel(ctx, kind) }));
}

async function pause(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx);
  const current = await settings.get(guildId, kind);
  if (current.pausedReason)
    throw new UserFacingError('feeds.pause.already', {
      kind: kindLabel(ctx, kind),
      reason: reasonText(ctx, current.pausedReason),
    });
  await settings.update(guildId, kind, { pausedReason: 'admin' });
  await reply(ctx, ctx.t('feeds.pause.done', { kind: kindLabel(ctx, kind) }));
}

async function resume(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx);
  const current = await settings.get(guildId, kind);
  if (!current.pausedReason) throw new UserFacingError('feeds.resume.notPaused', { kind: kindLabel(ctx, kind) });
  // A pause the bot set because of the channel ends only when the bot can post there again.
  if (!kindHasChannel(kind)) await requireEventPermissions(ctx);
  else if (current.channelId !== null) await requireCanPost(ctx, ctx.interaction.guild, current.channelId);
  else if (current.enabled) throw new UserFacingError('feeds.noChannel', { kind: kindLabel(ctx, kind) });
  // Paused because Eventor refused the key: resume only once it takes the key (asked afresh).
  if (current.pausedReason === 'invalid-key') await settings.requireKeyAccepted(() => ctx.guild.eventor());
  await settings.update(guildId, kind, { pausedReason: null });
  const lines = [ctx.t('feeds.resume.done', { kind: kindLabel(ctx, kind) })];
  if (!current.enabled) lines.push(ctx.t('feeds.resume.isOff'));
  await reply(ctx, lines.join(' '));
}

/** Refuses (nothing changed) unless the bot's roles grant what the server's scheduled events need. */
async function requireEventPermissions(ctx: CommandContext): Promise<void> {
  const missing = await missingEventPermissions(ctx.interaction.guild);
  if (missing && missing.length > 0)
    throw new UserFacingError('feeds.calendar.missing', {
      permissions: missing.map((key) => ctx.t(key)).join(', '),
    });
}

async function setRole(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx);
  // The server's Events are no messages: there is nothing a role could be mentioned in.
  if (!kindHasChannel(kind)) throw new UserFacingError('feeds.calendar.noRole', { kind: kindLabel(ctx, kind) });
  const role = ctx.interaction.options.getRole('role');
  if (role && role.id === guildId) throw new UserFacingError('feeds.role.everyone');
  await settings.update(guildId, kind, { roleId: role?.id ?? null });
  await reply(
    ctx,
    role
      ? ctx.t('feeds.role.set', { kind: kindLabel(ctx, kind), role: `<@&${role.id}>` })
      : ctx.t('feeds.role.cleared', { kind: kindLabel(ctx, kind) }),
  );
}

async function setReminders(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const input = ctx.interaction.options.getString('lead_days');
  const lateEntry = ctx.interaction.options.getBoolean('late_entry');
  const change: { leadDays?: number[]; lateEntry?: boolean } = {};
  if (input !== null) {
    const days = parseLeadDays(input);
    if (!days)
      throw new UserFacingError('feeds.reminders.badLeadDays', { input: input.slice(0, 40).replace(/`/g, "'") });
    change.leadDays = days;
  }
  if (lateEntry !== null) change.lateEntry = lateEntry;
  const after =
    Object.keys(change).length > 0
      ? await settings.update(guildId, 'reminders', { options: change })
      : await settings.get(guildId, 'reminders');
  await reply(
    ctx,
    ctx.t('feeds.reminders.done', {
      days: after.options.leadDays.join(', ') || '–',
      count: leadDaysCount(after.options.leadDays),
      late: ctx.t(after.options.lateEntry ? 'feeds.yes' : 'feeds.no'),
    }),
  );
}

async function setQuiet(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const from = ctx.interaction.options.getInteger('from');
  const to = ctx.interaction.options.getInteger('to');
  const kindInput = ctx.interaction.options.getString('kind');
  if (kindInput !== null && !isFeedKind(kindInput)) throw new UserFacingError('error.unexpected');
  const kinds: readonly FeedKind[] = kindInput === null ? FEED_KINDS : [kindInput as FeedKind];
  if ((from === null) !== (to === null)) throw new UserFacingError('feeds.quiet.bothOrNeither');
  const valid = (h: number): boolean => Number.isInteger(h) && h >= 0 && h <= 23;
  if (from !== null && to !== null && (!valid(from) || !valid(to) || from === to))
    throw new UserFacingError('feeds.quiet.badHour');
  const quietHours = from !== null && to !== null ? { from, to } : null;
  await settings.setQuietHours(guildId, kinds, quietHours);
  const label = kindInput === null ? ctx.t('feeds.quiet.allKinds') : kindLabel(ctx, kinds[0]!);
  await reply(
    ctx,
    quietHours
      ? ctx.t('feeds.quiet.done', {
          kinds: label,
          from: String(quietHours.from).padStart(2, '0'),
          to: String(quietHours.to).padStart(2, '0'),
          zone: ctx.guild.timeZone,
        })
      : ctx.t('feeds.quiet.cleared', { kinds: label }),
  );
}

async function setEventsFilter(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const input = ctx.interaction.options.getString('levels') ?? '';
  const kind = ctx.interaction.options.getString('kind') ?? 'events';
  if (!(FILTER_KINDS as readonly string[]).includes(kind)) throw new UserFacingError('error.unexpected');
  const parsed = parseLevels(input);
  if (!Array.isArray(parsed)) {
    const names = CLASSIFICATION_IDS.map((id) => `${id} ${levelLabel(ctx, id)}`).join(', ');
    throw new UserFacingError('feeds.filter.bad', { input: parsed.bad.slice(0, 40).replace(/`/g, "'"), names });
  }
  await settings.update(guildId, kind as FeedKind, { options: { classificationIds: parsed } });
  await reply(
    ctx,
    parsed.length > 0
      ? ctx.t(kind === 'calendar' ? 'feeds.filter.calendarDone' : 'feeds.filter.done', {
          levels: parsed.map((id) => levelLabel(ctx, id)).join(', '),
        })
      : ctx.t(kind === 'calendar' ? 'feeds.filter.calendarCleared' : 'feeds.filter.cleared'),
  );
}

async function setThreads(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const state = ctx.interaction.options.getString('state', true);
  if (state !== 'on' && state !== 'off') throw new UserFacingError('error.unexpected');
  if (state === 'off') {
    await settings.update(guildId, 'results', { options: { threads: false } });
    await reply(ctx, ctx.t('feeds.threads.off'));
    return;
  }
  const { channelId } = await settings.get(guildId, 'results');
  if (channelId !== null) {
    // Refused now rather than skipped on every post later: nothing is stored until it can work.
    const missing = await missingThreadPermissions(ctx.interaction.guild, channelId);
    if (missing === null) throw new UserFacingError('setup.channel.notFound');
    if (missing.length > 0) {
      throw new UserFacingError('feeds.threads.missing', {
        channel: `<#${channelId}>`,
        permissions: missing.map((key) => ctx.t(key)).join(', '),
      });
    }
  }
  await settings.update(guildId, 'results', { options: { threads: true } });
  await reply(
    ctx,
    channelId === null ? ctx.t('feeds.threads.onNoChannel') : ctx.t('feeds.threads.on', { channel: `<#${channelId}>` }),
  );
}

async function setDigest(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const dayInput = ctx.interaction.options.getString('day');
  const timeInput = ctx.interaction.options.getString('time');
  const change: { digestDay?: number; digestTime?: string } = {};
  if (dayInput !== null) {
    const day = Number(dayInput);
    if (!(DIGEST_DAYS as readonly number[]).includes(day)) throw new UserFacingError('error.unexpected');
    change.digestDay = day;
  }
  if (timeInput !== null) {
    const time = parseDigestTime(timeInput);
    if (time === null)
      throw new UserFacingError('feeds.digest.badTime', { input: timeInput.slice(0, 10).replace(/`/g, "'") });
    change.digestTime = time;
  }
  const after =
    Object.keys(change).length > 0
      ? await settings.setDigestWhen(guildId, change, ctx.guild.timeZone)
      : await settings.get(guildId, 'digest');
  await reply(ctx, ctx.t('feeds.digest.done', { ...digestWhen(ctx, after), zone: ctx.guild.timeZone }));
}

function digestWhen(ctx: CommandContext, feed: FeedSettings): { day: string; time: string } {
  return {
    day: ctx.t(`feeds.day.${feed.options.digestDay as (typeof DIGEST_DAYS)[number]}`),
    time: feed.options.digestTime,
  };
}

async function testPost(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx);
  if (!kindHasChannel(kind)) return previewWithoutChannel(ctx, settings, guildId, kind);
  if (!settings.hasTestPost(kind)) throw new UserFacingError('feeds.test.notAvailable', { kind: kindLabel(ctx, kind) });
  const { channelId } = await settings.get(guildId, kind);
  if (channelId === null) throw new UserFacingError('feeds.noChannel', { kind: kindLabel(ctx, kind) });
  await requireCanPost(ctx, ctx.interaction.guild, channelId);
  const eventor = await ctx.guild.eventor();
  // Its own ledger feed and a key of its own: a test post never stands in for the real one.
  const outcome = await settings.testPost(eventor, discordTarget(ctx.interaction.client), {
    guildId,
    kind,
    channelId,
    language: ctx.guild.language,
    timeZone: ctx.guild.timeZone,
    uniqueId: ctx.interaction.id,
  });
  if (!outcome) throw new UserFacingError('feeds.test.nothing', { kind: kindLabel(ctx, kind) });
  if (outcome.kind === 'paused') await requireCanPost(ctx, ctx.interaction.guild, channelId);
  if (outcome.kind !== 'posted') {
    ctx.log.warn('feeds test: not posted', {
      kind,
      outcome: outcome.kind,
      ...(outcome.kind === 'failed' ? { error: outcome.error } : {}),
    });
    throw new UserFacingError('feeds.test.failed');
  }
  await reply(ctx, ctx.t('feeds.test.posted', { kind: kindLabel(ctx, kind), channel: `<#${channelId}>` }));
}

/** `/feeds test` of a kind without a channel: what it would make, shown in the reply only (nothing is created). */
async function previewWithoutChannel(
  ctx: CommandContext,
  settings: FeedsAdmin,
  guildId: string,
  kind: FeedKind,
): Promise<void> {
  const preview = await settings.preview(await ctx.guild.eventor(), {
    guildId,
    kind,
    language: ctx.guild.language,
    timeZone: ctx.guild.timeZone,
  });
  if (!preview) throw new UserFacingError('feeds.test.nothing', { kind: kindLabel(ctx, kind) });
  // The heading in the admin's language; the event as members would see it, in the server's.
  await ctx.answer({ content: ctx.t('feeds.calendar.preview'), embeds: preview.embeds ?? [], components: [] });
}

async function describe(ctx: CommandContext, feed: FeedSettings): Promise<string> {
  const state = [ctx.t(feed.enabled ? 'feeds.show.on' : 'feeds.show.off')];
  if (feed.pausedReason) state.push(reasonText(ctx, feed.pausedReason));
  const channel = kindHasChannel(feed.feed)
    ? await channelState(ctx, ctx.interaction.guild, feed.channelId)
    : ctx.t('feeds.calendar.noChannel');
  const none = ctx.t('feeds.show.none');
  const { options } = feed;
  const lines = [
    state.join(' · '),
    ctx.t('feeds.show.channel', { value: channel }),
    ctx.t('feeds.show.role', { value: feed.roleId ? `<@&${feed.roleId}>` : none }),
    ctx.t('feeds.show.quiet', {
      value: options.quietHours
        ? `${String(options.quietHours.from).padStart(2, '0')}:00–${String(options.quietHours.to).padStart(2, '0')}:00`
        : none,
    }),
  ];
  if (feed.enabled) {
    const lastRun = await ctx.services.feedsAdmin.lastRunAt(feed.guildId, feed.feed);
    lines.push(
      lastRun ? ctx.t('feeds.show.lastRun', { when: discordTimestamp(lastRun, 'R') }) : ctx.t('feeds.show.notRunYet'),
    );
  }
  if (feed.feed === 'reminders') {
    lines.push(
      ctx.t('feeds.show.leadDays', {
        days: options.leadDays.join(', ') || '–',
        count: leadDaysCount(options.leadDays),
        late: ctx.t(options.lateEntry ? 'feeds.yes' : 'feeds.no'),
      }),
    );
  }
  if (feed.feed === 'results') lines.push(await describeThreads(ctx, feed));
  if (feed.feed === 'digest') lines.push(ctx.t('feeds.show.digest', digestWhen(ctx, feed)));
  if (!kindHasChannel(feed.feed))
    lines.push(ctx.t('feeds.calendar.permissions', { value: await eventPermissionState(ctx, ctx.interaction.guild) }));
  if (feed.feed === 'events' || feed.feed === 'calendar') {
    lines.push(
      ctx.t('feeds.show.levels', {
        value:
          options.classificationIds.length > 0
            ? options.classificationIds.map((id) => levelLabel(ctx, id)).join(', ')
            : none,
      }),
    );
  }
  return lines.join('\n');
}

/** Threads on or off, and when on whether the bot can open them and how many are still to open. */
async function describeThreads(ctx: CommandContext, feed: FeedSettings): Promise<string> {
  if (!feed.options.threads) return ctx.t('feeds.show.threads', { value: ctx.t('feeds.show.off') });
  const parts = [ctx.t('feeds.show.on')];
  const missing = feed.channelId === null ? [] : await missingThreadPermissions(ctx.interaction.guild, feed.channelId);
  if (missing && missing.length > 0)
    parts.push(ctx.t('feeds.show.threadsCannot', { permissions: missing.map((key) => ctx.t(key)).join(', ') }));
  const waiting = await ctx.services.feedsAdmin.threadsWaiting(feed.guildId);
  if (waiting > 0) parts.push(ctx.t('feeds.show.threadsWaiting', { count: waiting }));
  return ctx.t('feeds.show.threads', { value: parts.join(' · ') });
}

async function show(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const embed = new EmbedBuilder().setTitle(ctx.t('feeds.show.title')).setFooter({ text: ctx.t('feeds.show.footer') });
  for (const feed of await settings.all(guildId))
    embed.addFields({ name: kindLabel(ctx, feed.feed), value: await describe(ctx, feed) });
  await ctx.answer({ content: '', embeds: [embed], components: [] });
}

type FeedsSubcommand = (ctx: CommandContext, settings: FeedsAdmin, guildId: string) => Promise<void>;

/** A subcommand with the server's feed settings at hand; the router has checked Manage Server, so it is in a server. */
const withSettings = (run: FeedsSubcommand) => (ctx: CommandContext) =>
  run(ctx, ctx.services.feedsAdmin, ctx.guild.id!);

export const feedsCommand: BotCommand = {
  definition,
  defer: 'ephemeral',
  requires: { permission: 'manageGuild' },
  subcommands: {
    on: withSettings(turnOn),
    off: withSettings(turnOff),
    pause: withSettings(pause),
    resume: withSettings(resume),
    role: withSettings(setRole),
    reminders: withSettings(setReminders),
    quiet: withSettings(setQuiet),
    'events-filter': withSettings(setEventsFilter),
    threads: withSettings(setThreads),
    digest: withSettings(setDigest),
    test: withSettings(testPost),
    show: withSettings(show),
  },
};
