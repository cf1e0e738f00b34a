/**
 * `/setup` (Manage Server only): the server's Eventor and API key, the language and time zone of
 * automatic posts, and one channel per kind of automatic post; `/setup show` shows it all
 * without ever showing the key. Every answer is ephemeral, and a refused input changes nothing.
 */
import { type ChannelType, EmbedBuilder } from 'discord.js';
import { instanceOf } from '../src/club/eventor-access.js';
import { type BotCommand, type CommandContext, onComponent, UserFacingError } from '../src/bot/command.js';
import { localize, localizedChoice, serverAdminCommand } from '../src/bot/define.js';
import { settingsServer } from '../src/bot/guards.js';
import { INSTANCE_NAMES, instanceLabel, keyFormId, startEventorSetup, submitKey } from '../src/bot/setup-eventor.js';
import { linkingSubcommand, setLinking } from '../src/bot/setup-linking.js';
import {
  channelState,
  POSTABLE_TYPES,
  requireCanPost,
  serverPermissionState,
} from '../src/feeds/delivery/post-channels.js';
import type { FeedKind } from '../src/feeds/kind.js';
import { KINDS } from '../src/feeds/registry.js';
import type { Language, PlainKey } from '../src/i18n/index.js';
import { escapeName } from '../src/render/index.js';
import { isValidTimeZone } from '../src/time/zones.js';

/** Where notices to admins go: a channel /setup chooses beside one per kind of automatic post. */
const ADMIN = { name: 'admin', label: 'setup.kind.admin' } as const;

/** The channels /setup chooses: one per kind of automatic post that has a channel, and the admins'. */
function postKinds(kinds: readonly FeedKind[]): ReadonlyArray<{ name: string; label: PlainKey }> {
  return [...kinds.filter((kind) => kind.audience === 'channel'), ADMIN];
}

/** Language names as their speakers write them: the choice list is the same in every client. */
const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', sv: 'Svenska', nb: 'Norsk bokmål' };

function languageName(ctx: CommandContext, language: Language): string {
  return ctx.t(`setup.languageName.${language}`);
}

/** Listed first when the member has typed nothing yet: the zones of the Eventor countries. */
const COMMON_ZONES = [
  'Europe/Stockholm',
  'Europe/Oslo',
  'Europe/Helsinki',
  'Europe/Copenhagen',
  'Europe/London',
  'Europe/Berlin',
  'Australia/Sydney',
  'Australia/Melbourne',
  'Australia/Brisbane',
  'Australia/Adelaide',
  'Australia/Perth',
  'Australia/Hobart',
  'Australia/Darwin',
  'Pacific/Auckland',
  'UTC',
];
let allZones: string[] | null = null;
function zones(): string[] {
  allZones ??= [...new Set([...COMMON_ZONES, ...Intl.supportedValuesOf('timeZone')])];
  return allZones;
}

const definitionFor = (kinds: readonly FeedKind[]) =>
  serverAdminCommand('setup.name', 'setup.description')
    .addSubcommand((sub) =>
      localize(sub, 'setup.eventor.name', 'setup.eventor.description')
        .addStringOption((o) =>
          localize(o, 'setup.eventor.instance.name', 'setup.eventor.instance.description').addChoices(
            ...INSTANCE_NAMES.map((n) => localizedChoice(`setup.instance.${n}`, n)),
          ),
        )
        .addStringOption((o) =>
          localize(o, 'setup.eventor.baseUrl.name', 'setup.eventor.baseUrl.description').setMaxLength(300),
        ),
    )
    .addSubcommand((sub) =>
      localize(sub, 'setup.language.name', 'setup.language.description').addStringOption((o) =>
        localize(o, 'setup.language.option.name', 'setup.language.option.description')
          .setRequired(true)
          .addChoices(
            ...(Object.entries(LANGUAGE_NAMES) as Array<[Language, string]>).map(([value, name]) => ({ name, value })),
          ),
      ),
    )
    .addSubcommand((sub) =>
      localize(sub, 'setup.timezone.name', 'setup.timezone.description').addStringOption((o) =>
        localize(o, 'setup.timezone.option.name', 'setup.timezone.option.description')
          .setRequired(true)
          .setAutocomplete(true)
          .setMaxLength(64),
      ),
    )
    .addSubcommand((sub) =>
      localize(sub, 'setup.channel.name', 'setup.channel.description')
        .addStringOption((o) =>
          localize(o, 'setup.channel.kind.name', 'setup.channel.kind.description')
            .setRequired(true)
            .addChoices(...postKinds(kinds).map((k) => localizedChoice(k.label, k.name))),
        )
        .addChannelOption((o) =>
          localize(o, 'setup.channel.channel.name', 'setup.channel.channel.description').addChannelTypes(
            ...POSTABLE_TYPES,
          ),
        )
        .addBooleanOption((o) => localize(o, 'setup.channel.clear.name', 'setup.channel.clear.description')),
    )
    .addSubcommand((sub) => localize(sub, 'setup.show.name', 'setup.show.description'))
    .addSubcommand(linkingSubcommand)
    .toJSON();

function kindLabel(ctx: CommandContext, kinds: readonly FeedKind[], kind: string): string {
  const postKind = postKinds(kinds).find((k) => k.name === kind);
  return postKind ? ctx.t(postKind.label) : kind;
}

async function reply(ctx: CommandContext, content: string): Promise<void> {
  await ctx.answer({ content, embeds: [], components: [] });
}

async function setLanguage(ctx: CommandContext, guildId: string): Promise<void> {
  const value = ctx.interaction.options.getString('language', true);
  if (!Object.hasOwn(LANGUAGE_NAMES, value)) throw new UserFacingError('error.unexpected');
  await ctx.services.setup.setLanguage(guildId, value as Language);
  await reply(ctx, ctx.t('setup.language.done', { language: languageName(ctx, value as Language) }));
}

/** The zone's canonical name, or null: offsets and abbreviations Intl may accept are not zones to store. */
export function canonicalZone(input: string): string | null {
  const zone = input.trim().replace(/ /g, '_');
  if (zone.length === 0 || zone.length > 64 || !isValidTimeZone(zone)) return null;
  const canonical = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  return /^(?:UTC|[A-Za-z]+(?:\/[A-Za-z0-9_+-]+)+)$/.test(canonical) ? canonical : null;
}

async function setTimeZone(ctx: CommandContext, guildId: string): Promise<void> {
  const input = ctx.interaction.options.getString('zone', true);
  const zone = canonicalZone(input);
  if (!zone) throw new UserFacingError('setup.timezone.invalid', { zone: input.slice(0, 64) });
  await ctx.services.setup.setTimeZone(guildId, zone);
  const time = new Intl.DateTimeFormat(ctx.language === 'nb' ? 'nb-NO' : ctx.language === 'sv' ? 'sv-SE' : 'en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
  }).format(ctx.now());
  await reply(ctx, ctx.t('setup.timezone.done', { zone, time }));
}

async function setChannel(ctx: CommandContext, guildId: string): Promise<void> {
  const kinds = ctx.services.feedsAdmin.kinds;
  const kind = ctx.interaction.options.getString('kind', true);
  if (!postKinds(kinds).some((k) => k.name === kind)) throw new UserFacingError('error.unexpected');
  const option = ctx.interaction.options.getChannel('channel');
  const clear = ctx.interaction.options.getBoolean('clear') === true;
  if ((option === null) === !clear) throw new UserFacingError('setup.channel.chooseOne');
  if (clear) {
    await ctx.services.feedsAdmin.setChannel(guildId, kind, null);
    await reply(ctx, ctx.t('setup.channel.cleared', { kind: kindLabel(ctx, kinds, kind) }));
    return;
  }
  if (!(POSTABLE_TYPES as readonly ChannelType[]).includes(option!.type))
    throw new UserFacingError('setup.channel.wrongType');
  await requireCanPost(ctx, ctx.interaction.guild, option!.id);
  // A feed paused because of its old channel runs again in the new one.
  await ctx.services.feedsAdmin.setChannel(guildId, kind, option!.id);
  await reply(ctx, ctx.t('setup.channel.done', { kind: kindLabel(ctx, kinds, kind), channel: `<#${option!.id}>` }));
}

async function eventorSummary(ctx: CommandContext, guildId: string): Promise<string> {
  const settings = await ctx.services.setup.settings(guildId);
  const instance = settings ? instanceOf(settings.eventorInstance, settings.eventorBaseUrl) : null;
  if (settings?.hasApiKey && instance) {
    return ctx.t('setup.show.connected', {
      club: escapeName(settings.organisationName ?? '?'),
      instance: instanceLabel(ctx.language, instance),
    });
  }
  try {
    const eventor = await ctx.guild.eventor();
    return ctx.t('setup.show.operatorDefault', {
      club: escapeName(eventor.organisationName),
      instance: instanceLabel(ctx.language, eventor.instance),
    });
  } catch (error) {
    if (error instanceof UserFacingError && error.key === 'error.notConfigured')
      return ctx.t('setup.show.notConnected');
    ctx.log.warn('setup show: default eventor unavailable', { error });
    return ctx.t('status.eventorDown');
  }
}

async function show(ctx: CommandContext, guildId: string): Promise<void> {
  const settings = await ctx.services.setup.settings(guildId);
  const language = settings?.locale
    ? languageName(ctx, ctx.guild.language)
    : ctx.t('setup.show.default', { value: languageName(ctx, ctx.guild.language) });
  const timeZone = settings?.timeZone ? settings.timeZone : ctx.t('setup.show.default', { value: ctx.guild.timeZone });
  const guild = ctx.interaction.guild;
  const kinds = ctx.services.feedsAdmin.kinds;
  const channelLines: string[] = [];
  for (const kind of postKinds(kinds)) {
    const state = await channelState(ctx, guild, settings?.channels[kind.name]);
    channelLines.push(`**${ctx.t(kind.label)}**: ${state}`);
  }
  // A kind without a channel (the server's Events) needs permissions of the whole server instead.
  for (const kind of kinds) {
    if (kind.audience !== 'server' || !kind.serverWords) continue;
    const words = kind.serverWords;
    const state = await serverPermissionState(ctx, guild, kind.permissions, {
      missing: words.missing,
      ok: words.permissionsOk,
    });
    channelLines.push(`**${ctx.t(kind.label)}**: ${state}`, `-# ${ctx.t(words.setupHint)}`);
  }
  const embed = new EmbedBuilder()
    .setTitle(ctx.t('setup.show.title'))
    .addFields(
      { name: ctx.t('setup.show.eventor'), value: await eventorSummary(ctx, guildId) },
      { name: ctx.t('setup.show.language'), value: language, inline: true },
      { name: ctx.t('setup.show.timeZone'), value: timeZone, inline: true },
      { name: ctx.t('setup.show.channels'), value: channelLines.join('\n') },
    );
  await ctx.answer({ embeds: [embed] });
}

/** `/setup` for these kinds of automatic post (the registry's, or a test's). */
export const setupCommandFor = (kinds: readonly FeedKind[]): BotCommand => ({
  definition: definitionFor(kinds),
  // The rest may touch Discord or Eventor.
  defer: 'ephemeral',
  requires: { permission: 'manageGuild' },
  subcommands: {
    // The modal must be the first answer, so `eventor` cannot be deferred.
    eventor: { defer: 'none', execute: startEventorSetup },
    language: (ctx) => setLanguage(ctx, settingsServer(ctx)),
    timezone: (ctx) => setTimeZone(ctx, settingsServer(ctx)),
    channel: (ctx) => setChannel(ctx, settingsServer(ctx)),
    show: (ctx) => show(ctx, settingsServer(ctx)),
    linking: (ctx) => setLinking(ctx, settingsServer(ctx)),
  },
  async autocomplete(ctx) {
    const typed = String(ctx.interaction.options.getFocused()).trim().toLowerCase().replace(/ /g, '_');
    const list = typed === '' ? COMMON_ZONES : zones().filter((zone) => zone.toLowerCase().includes(typed));
    // The Eventor countries' zones first (in COMMON_ZONES order), then names starting with what was typed.
    const rank = (zone: string): number => {
      const common = COMMON_ZONES.indexOf(zone);
      if (common >= 0) return common;
      const lower = zone.toLowerCase();
      return lower.startsWith(typed) || lower.split('/').some((part) => part.startsWith(typed))
        ? COMMON_ZONES.length
        : COMMON_ZONES.length + 1;
    };
    return [...list]
      .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
      .slice(0, 25)
      .map((zone) => ({ name: zone, value: zone }));
  },
  components: [
    onComponent(keyFormId, { defer: 'ephemeral', requires: { permission: 'manageGuild' }, handle: submitKey }),
  ],
});

export const setup: BotCommand = setupCommandFor(KINDS);
