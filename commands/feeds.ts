/**
 * `/feeds` (Manage Server only, declared for the router to check), built from the kinds of automatic
 * post (src/feeds/registry.ts): for each kind, on/off, pause/resume, a role to mention, quiet hours,
 * the levels filter of the kinds that follow levels, a test post of the newest item, an overview;
 * and the subcommand each kind has of its own (the reminders' lead times, the results' threads, the
 * digest's day). Writes the settings through the feeds admin service (src/app/feeds-admin.ts) and,
 * for `on <kind> channel:`, the channel of `/setup channel`. Every answer is ephemeral, and a refused
 * input changes nothing.
 */
import {
  type ChannelType,
  EmbedBuilder,
  type SlashCommandStringOption,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';
import type { DiscordView, FeedsAdmin } from '../src/app/feeds-admin.js';
import { type BotCommand, type CommandContext, UserFacingError } from '../src/bot/command.js';
import { localize, localizedChoice, serverAdminCommand } from '../src/bot/define.js';
import { CLASSIFICATION_IDS, classificationOfId, EVENT_CLASSIFICATIONS } from '../src/eventor/model.js';
import {
  channelState,
  missingChannelPermissions,
  missingServerPermissions,
  POSTABLE_TYPES,
  requireCanPost,
  serverPermissionState,
} from '../src/feeds/delivery/post-channels.js';
import { discordTarget } from '../src/feeds/delivery/poster.js';
import type { FeedSettings, PauseReason } from '../src/feeds/feed.js';
import type { FeedKind, KindCommandOption, LevelsOptions } from '../src/feeds/kind.js';
import { KINDS } from '../src/feeds/registry.js';
import { LANGUAGES, type PlainKey, t } from '../src/i18n/index.js';
import { classificationText, discordTimestamp } from '../src/render/index.js';

/** The ledger's feed name of `/feeds test` posts: they never meet a real feed's items. */
// Where tests and the scheduler look for it; it belongs to the service.
export { TEST_FEED } from '../src/app/feeds-admin.js';

// ------------------------------------------------------------------------------------------------
// Parsing (pure, exported for unit tests)

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
// The definition, from the kinds

/** A string option choosing one of `kinds`. */
const kindOption =
  (kinds: readonly FeedKind[], required: boolean, descriptionKey: PlainKey = 'feeds.opt.kind.description') =>
  (o: SlashCommandStringOption) =>
    localize(o, 'feeds.opt.kind.name', descriptionKey)
      .setRequired(required)
      .addChoices(...kinds.map((kind) => localizedChoice(kind.label, kind.name)));

/** A kind's own option, as Discord shows it. */
function addKindOption(sub: SlashCommandSubcommandBuilder, option: KindCommandOption): SlashCommandSubcommandBuilder {
  if (option.type === 'boolean')
    return sub.addBooleanOption((o) =>
      localize(o, option.name, option.description).setRequired(option.required === true),
    );
  return sub.addStringOption((o) => {
    const built = localize(o, option.name, option.description).setRequired(option.required === true);
    if (option.maxLength !== undefined) built.setMaxLength(option.maxLength);
    if (option.choices) built.addChoices(...option.choices.map((c) => localizedChoice(c.label, c.value)));
    return built;
  });
}

function definitionFor(kinds: readonly FeedKind[]) {
  const withLevels = kinds.filter((kind) => kind.levels);
  const command = serverAdminCommand('feeds.name', 'feeds.description')
    .addSubcommand((sub) =>
      localize(sub, 'feeds.on.name', 'feeds.on.description')
        .addStringOption(kindOption(kinds, true))
        .addChannelOption((o) =>
          localize(o, 'feeds.opt.channel.name', 'feeds.opt.channel.description').addChannelTypes(...POSTABLE_TYPES),
        ),
    )
    .addSubcommand((sub) =>
      localize(sub, 'feeds.off.name', 'feeds.off.description').addStringOption(kindOption(kinds, true)),
    )
    .addSubcommand((sub) =>
      localize(sub, 'feeds.pause.name', 'feeds.pause.description').addStringOption(kindOption(kinds, true)),
    )
    .addSubcommand((sub) =>
      localize(sub, 'feeds.resume.name', 'feeds.resume.description').addStringOption(kindOption(kinds, true)),
    )
    .addSubcommand((sub) =>
      localize(sub, 'feeds.role.name', 'feeds.role.description')
        .addStringOption(kindOption(kinds, true))
        .addRoleOption((o) => localize(o, 'feeds.opt.role.name', 'feeds.opt.role.description')),
    )
    .addSubcommand((sub) =>
      localize(sub, 'feeds.quiet.name', 'feeds.quiet.description')
        .addIntegerOption((o) =>
          localize(o, 'feeds.opt.from.name', 'feeds.opt.from.description').setMinValue(0).setMaxValue(23),
        )
        .addIntegerOption((o) =>
          localize(o, 'feeds.opt.to.name', 'feeds.opt.to.description').setMinValue(0).setMaxValue(23),
        )
        .addStringOption(kindOption(kinds, false, 'feeds.opt.quietKind.description')),
    );
  if (withLevels.length > 0)
    command.addSubcommand((sub) =>
      localize(sub, 'feeds.filter.name', 'feeds.filter.description')
        .addStringOption((o) => localize(o, 'feeds.opt.levels.name', 'feeds.opt.levels.description').setMaxLength(200))
        .addStringOption((o) =>
          localize(o, 'feeds.opt.kind.name', 'feeds.opt.filterKind.description').addChoices(
            ...withLevels.map((kind) => localizedChoice(kind.label, kind.name)),
          ),
        ),
    );
  for (const kind of kinds) {
    const own = kind.subcommand;
    if (own)
      command.addSubcommand((sub) => own.options.reduce(addKindOption, localize(sub, own.name, own.description)));
  }
  return command
    .addSubcommand((sub) =>
      localize(sub, 'feeds.test.name', 'feeds.test.description').addStringOption(kindOption(kinds, true)),
    )
    .addSubcommand((sub) => localize(sub, 'feeds.show.name', 'feeds.show.description'))
    .toJSON();
}

// ------------------------------------------------------------------------------------------------
// Helpers

function kindOf(ctx: CommandContext, settings: FeedsAdmin): FeedKind {
  return settings.kind(ctx.interaction.options.getString('kind', true));
}

function kindLabel(ctx: CommandContext, kind: FeedKind): string {
  return ctx.t(kind.label);
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

/** What the feeds admin's kinds need of Discord and of the admin asking. */
function discordView(ctx: CommandContext): DiscordView {
  return {
    timeZone: ctx.guild.timeZone,
    t: ctx.t,
    missingIn: (channelId, wanted) => missingChannelPermissions(ctx.interaction.guild, channelId, wanted),
  };
}

/** The words of a kind without a channel: declared by every such kind. */
function serverWords(kind: FeedKind) {
  if (!kind.serverWords) throw new Error(`the ${kind.name} kind has no channel and no words for it`);
  return kind.serverWords;
}

/** Refuses (nothing changed) unless the bot's roles grant, server-wide, what a server kind needs. */
async function requireServerPermissions(ctx: CommandContext, kind: FeedKind): Promise<void> {
  const missing = await missingServerPermissions(ctx.interaction.guild, kind.permissions);
  if (missing && missing.length > 0)
    throw new UserFacingError(serverWords(kind).missing, {
      permissions: missing.map((key) => ctx.t(key)).join(', '),
    });
}

// ------------------------------------------------------------------------------------------------
// Subcommands

async function turnOn(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx, settings);
  if (kind.audience === 'server') return turnOnWithoutChannel(ctx, settings, guildId, kind);
  const option = ctx.interaction.options.getChannel('channel');
  const current = await settings.get(guildId, kind.name);
  const channelId = option?.id ?? current.channelId;
  if (channelId === null) throw new UserFacingError('feeds.noChannel', { kind: kindLabel(ctx, kind) });
  if (option && !(POSTABLE_TYPES as readonly ChannelType[]).includes(option.type))
    throw new UserFacingError('setup.channel.wrongType');
  await requireCanPost(ctx, ctx.interaction.guild, channelId);
  // The channel and the switch together, or neither.
  const after = await settings.turnOn(guildId, kind.name, option?.id ?? null, ctx.guild.timeZone);
  const lines = [ctx.t(kind.onWords ?? 'feeds.on.done', { kind: kindLabel(ctx, kind), channel: `<#${channelId}>` })];
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
  const words = serverWords(kind);
  const after = await settings.turnOn(guildId, kind.name, null, ctx.guild.timeZone);
  const lines = [ctx.t(words.on, { kind: kindLabel(ctx, kind) })];
  const missing = await missingServerPermissions(ctx.interaction.guild, kind.permissions);
  if (missing && missing.length > 0)
    lines.push(ctx.t(words.missing, { permissions: missing.map((key) => ctx.t(key)).join(', ') }));
  if (after.pausedReason) lines.push(ctx.t('feeds.on.stillPaused', { reason: reasonText(ctx, after.pausedReason) }));
  await reply(ctx, lines.join(' '));
}

async function turnOff(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx, settings);
  await settings.update(guildId, kind.name, { enabled: false });
  await reply(ctx, ctx.t('feeds.off.done', { kind: kindLabel(ctx, kind) }));
}

async function pause(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx, settings);
  const current = await settings.get(guildId, kind.name);
  if (current.pausedReason)
    throw new UserFacingError('feeds.pause.already', {
      kind: kindLabel(ctx, kind),
      reason: reasonText(ctx, current.pausedReason),
    });
  await settings.update(guildId, kind.name, { pausedReason: 'admin' });
  await reply(ctx, ctx.t('feeds.pause.done', { kind: kindLabel(ctx, kind) }));
}

async function resume(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx, settings);
  const current = await settings.get(guildId, kind.name);
  if (!current.pausedReason) throw new UserFacingError('feeds.resume.notPaused', { kind: kindLabel(ctx, kind) });
  // A pause the bot set because of the channel ends only when the bot can post there again.
  if (kind.audience === 'server') await requireServerPermissions(ctx, kind);
  else if (current.channelId !== null) await requireCanPost(ctx, ctx.interaction.guild, current.channelId);
  else if (current.enabled) throw new UserFacingError('feeds.noChannel', { kind: kindLabel(ctx, kind) });
  // Paused because Eventor refused the key: resume only once it takes the key (asked afresh).
  if (current.pausedReason === 'invalid-key') await settings.requireKeyAccepted(() => ctx.guild.eventor());
  await settings.update(guildId, kind.name, { pausedReason: null });
  const lines = [ctx.t('feeds.resume.done', { kind: kindLabel(ctx, kind) })];
  if (!current.enabled) lines.push(ctx.t('feeds.resume.isOff'));
  await reply(ctx, lines.join(' '));
}

async function setRole(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx, settings);
  // A kind without a channel makes no messages: there is nothing a role could be mentioned in.
  if (kind.audience === 'server') throw new UserFacingError(serverWords(kind).noRole, { kind: kindLabel(ctx, kind) });
  const role = ctx.interaction.options.getRole('role');
  if (role && role.id === guildId) throw new UserFacingError('feeds.role.everyone');
  await settings.update(guildId, kind.name, { roleId: role?.id ?? null });
  await reply(
    ctx,
    role
      ? ctx.t('feeds.role.set', { kind: kindLabel(ctx, kind), role: `<@&${role.id}>` })
      : ctx.t('feeds.role.cleared', { kind: kindLabel(ctx, kind) }),
  );
}

async function setQuiet(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const from = ctx.interaction.options.getInteger('from');
  const to = ctx.interaction.options.getInteger('to');
  const kindInput = ctx.interaction.options.getString('kind');
  const kinds = kindInput === null ? settings.kinds : [settings.kind(kindInput)];
  if ((from === null) !== (to === null)) throw new UserFacingError('feeds.quiet.bothOrNeither');
  const valid = (h: number): boolean => Number.isInteger(h) && h >= 0 && h <= 23;
  if (from !== null && to !== null && (!valid(from) || !valid(to) || from === to))
    throw new UserFacingError('feeds.quiet.badHour');
  const quietHours = from !== null && to !== null ? { from, to } : null;
  await settings.setQuietHours(
    guildId,
    kinds.map((kind) => kind.name),
    quietHours,
  );
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

async function setLevels(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const input = ctx.interaction.options.getString('levels') ?? '';
  const named = ctx.interaction.options.getString('kind');
  // Without a kind, the first that follows levels (the new events).
  const kind = named === null ? settings.kinds.find((k) => k.levels) : settings.kind(named);
  if (!kind?.levels) throw new UserFacingError('error.unexpected');
  const parsed = parseLevels(input);
  if (!Array.isArray(parsed)) {
    const names = CLASSIFICATION_IDS.map((id) => `${id} ${levelLabel(ctx, id)}`).join(', ');
    throw new UserFacingError('feeds.filter.bad', { input: parsed.bad.slice(0, 40).replace(/`/g, "'"), names });
  }
  const levels: Partial<LevelsOptions> = { classificationIds: parsed };
  await settings.change(guildId, kind.name, { options: levels }, ctx.guild.timeZone);
  await reply(
    ctx,
    parsed.length > 0
      ? ctx.t(kind.levels.done, { levels: parsed.map((id) => levelLabel(ctx, id)).join(', ') })
      : ctx.t(kind.levels.cleared),
  );
}

async function testPost(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const kind = kindOf(ctx, settings);
  if (kind.audience === 'server') return previewWithoutChannel(ctx, settings, guildId, kind);
  if (!kind.preview) throw new UserFacingError('feeds.test.notAvailable', { kind: kindLabel(ctx, kind) });
  const { channelId } = await settings.get(guildId, kind.name);
  if (channelId === null) throw new UserFacingError('feeds.noChannel', { kind: kindLabel(ctx, kind) });
  await requireCanPost(ctx, ctx.interaction.guild, channelId);
  const eventor = await ctx.guild.eventor();
  // Its own ledger feed and a key of its own: a test post never stands in for the real one.
  const outcome = await settings.testPost(eventor, discordTarget(ctx.interaction.client), {
    guildId,
    kind: kind.name,
    channelId,
    language: ctx.guild.language,
    timeZone: ctx.guild.timeZone,
    uniqueId: ctx.interaction.id,
  });
  if (!outcome) throw new UserFacingError('feeds.test.nothing', { kind: kindLabel(ctx, kind) });
  if (outcome.kind === 'paused') await requireCanPost(ctx, ctx.interaction.guild, channelId);
  if (outcome.kind !== 'posted') {
    ctx.log.warn('feeds test: not posted', {
      kind: kind.name,
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
    kind: kind.name,
    language: ctx.guild.language,
    timeZone: ctx.guild.timeZone,
  });
  if (!preview) throw new UserFacingError('feeds.test.nothing', { kind: kindLabel(ctx, kind) });
  // The heading in the admin's language; the event as members would see it, in the server's.
  await ctx.answer({ content: ctx.t(serverWords(kind).preview), embeds: preview.embeds ?? [], components: [] });
}

async function describe(ctx: CommandContext, settings: FeedsAdmin, feed: FeedSettings): Promise<string> {
  const kind = settings.kind(feed.feed);
  const state = [ctx.t(feed.enabled ? 'feeds.show.on' : 'feeds.show.off')];
  if (feed.pausedReason) state.push(reasonText(ctx, feed.pausedReason));
  const channel =
    kind.audience === 'server'
      ? ctx.t(serverWords(kind).noChannel)
      : await channelState(ctx, ctx.interaction.guild, feed.channelId);
  const none = ctx.t('feeds.show.none');
  const lines = [
    state.join(' · '),
    ctx.t('feeds.show.channel', { value: channel }),
    ctx.t('feeds.show.role', { value: feed.roleId ? `<@&${feed.roleId}>` : none }),
    ctx.t('feeds.show.quiet', {
      value: feed.quietHours
        ? `${String(feed.quietHours.from).padStart(2, '0')}:00–${String(feed.quietHours.to).padStart(2, '0')}:00`
        : none,
    }),
  ];
  if (feed.enabled) {
    const lastRun = await settings.lastRunAt(feed.guildId, kind.name);
    lines.push(
      lastRun ? ctx.t('feeds.show.lastRun', { when: discordTimestamp(lastRun, 'R') }) : ctx.t('feeds.show.notRunYet'),
    );
  }
  if (kind.describe)
    lines.push(...(await kind.describe(feed, settings.adminContext(feed.guildId, kind.name, discordView(ctx)))));
  if (kind.audience === 'server') {
    const words = serverWords(kind);
    const value = await serverPermissionState(ctx, ctx.interaction.guild, kind.permissions, {
      missing: words.missing,
      ok: words.permissionsOk,
    });
    lines.push(ctx.t(words.permissions, { value }));
  }
  if (kind.levels) {
    const { classificationIds } = feed.options as unknown as LevelsOptions;
    lines.push(
      ctx.t('feeds.show.levels', {
        value: classificationIds.length > 0 ? classificationIds.map((id) => levelLabel(ctx, id)).join(', ') : none,
      }),
    );
  }
  return lines.join('\n');
}

async function show(ctx: CommandContext, settings: FeedsAdmin, guildId: string): Promise<void> {
  const embed = new EmbedBuilder().setTitle(ctx.t('feeds.show.title')).setFooter({ text: ctx.t('feeds.show.footer') });
  for (const feed of await settings.all(guildId))
    embed.addFields({ name: kindLabel(ctx, settings.kind(feed.feed)), value: await describe(ctx, settings, feed) });
  await ctx.answer({ content: '', embeds: [embed], components: [] });
}

type FeedsSubcommand = (ctx: CommandContext, settings: FeedsAdmin, guildId: string) => Promise<void>;
type SubcommandHandler = (ctx: CommandContext) => Promise<void>;

/** A subcommand with the server's feed settings at hand; the router has checked Manage Server, so it is in a server. */
const withSettings =
  (run: FeedsSubcommand): SubcommandHandler =>
  (ctx: CommandContext) =>
    run(ctx, ctx.services.feedsAdmin, ctx.guild.id!);

/** A kind's own subcommand: what the admin gave, by option name, to the kind; its answer back. */
function kindSubcommand(kind: FeedKind): SubcommandHandler {
  const own = kind.subcommand!;
  return withSettings(async (ctx, settings, guildId) => {
    const input: Record<string, string | boolean | null> = {};
    for (const option of own.options) {
      const name = t('en', option.name);
      input[name] =
        option.type === 'boolean' ? ctx.interaction.options.getBoolean(name) : ctx.interaction.options.getString(name);
    }
    await reply(ctx, await own.run(input, settings.adminContext(guildId, kind.name, discordView(ctx))));
  });
}

/** `/feeds` for these kinds (the registry's, or a test's with one more). */
export function feedsCommandFor(kinds: readonly FeedKind[]): BotCommand {
  const own = Object.fromEntries(
    kinds.filter((kind) => kind.subcommand).map((kind) => [t('en', kind.subcommand!.name), kindSubcommand(kind)]),
  );
  return {
    definition: definitionFor(kinds),
    defer: 'ephemeral',
    requires: { permission: 'manageGuild' },
    subcommands: {
      on: withSettings(turnOn),
      off: withSettings(turnOff),
      pause: withSettings(pause),
      resume: withSettings(resume),
      role: withSettings(setRole),
      quiet: withSettings(setQuiet),
      [t('en', 'feeds.filter.name')]: withSettings(setLevels),
      ...own,
      test: withSettings(testPost),
      show: withSettings(show),
    },
  };
}

export const feedsCommand: BotCommand = feedsCommandFor(KINDS);
