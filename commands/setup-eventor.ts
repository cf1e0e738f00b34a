/**
 * `/setup eventor`: which Eventor, then the API key in a modal (slash options stay visible in the
 * member's client history, a modal's text does not), checked with Eventor at once and stored
 * only when Eventor accepts it. Moving to another Eventor or club forgets the members' links,
 * requests and `/notify` subscriptions in the same step, and tells them by DM.
 */
import { randomBytes } from 'node:crypto';
import { LabelBuilder, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { z } from 'zod';
import { customIdCodec, UserFacingError, type CommandContext, type ComponentContext, type CustomIdValue } from '../src/bot/command.js';
import { EventorClient } from '../src/eventor/client.js';
import { EventorError } from '../src/eventor/errors.js';
import { customInstance, INSTANCES, isInstanceName, type EventorInstance, type InstanceName } from '../src/eventor/instances.js';
import { connectEventor } from '../src/bot/privacy.js';
import type { Language, PlainKey } from '../src/i18n/index.js';
import { languageFor, t } from '../src/i18n/index.js';
import { escapeName } from '../src/render/index.js';

export const INSTANCE_NAMES = Object.keys(INSTANCES) as InstanceName[];
export const KEY_INPUT = 'key';
const KEY_MIN = 16;
const KEY_MAX = 128;
/** ASCII without spaces, quotes or backslashes: it travels in an HTTP header, and the log masks it verbatim (JSON would escape `"` and `\`). */
const KEY_SHAPE = new RegExp(`^[\\x21\\x23-\\x5b\\x5d-\\x7e]{${KEY_MIN},${KEY_MAX}}$`);
const PENDING_TTL_MS = 15 * 60_000;
const PENDING_MAX = 1_000;
/** The key check answers an admin who is waiting: fewer retries and a shorter timeout than normal calls. */
const CHECK_RETRIES = 1;
const CHECK_TIMEOUT_MS = 15_000;
/** DMs telling members their links went when the server moved: a bounded courtesy, not a broadcast. */
const MOVE_NOTICES_MAX = 250;
const MOVE_NOTICES_MS = 2 * 60_000;

interface PendingCustom {
  guildId: string;
  userId: string;
  baseUrl: string;
  expiresAt: number;
}

/**
 * Custom base URLs between the slash command and the modal submit, kept here rather than in the
 * custom id (which is capped at 100 characters and comes back from the client unverified).
 */
const pending = new Map<string, PendingCustom>();

/**
 * The key form: a preset instance's name, or `custom` and the reference of the base URL kept in
 * `pending` (12 random bytes, base64url).
 */
export const keyFormId = customIdCodec('setup:key', z.object({
  instance: z.string().regex(/^[a-z]{1,20}$/),
  ref: z.string().regex(/^[\w-]{16}$/).optional(),
}));

function prune(now: number): void {
  for (const [id, entry] of pending) if (entry.expiresAt <= now) pending.delete(id);
  // Oldest first (insertion order): a flood of unused forms cannot grow the map without bound.
  while (pending.size >= PENDING_MAX) pending.delete(pending.keys().next().value!);
}

/** An instance's name in the member's language; a custom Eventor goes by its host. */
export function instanceLabel(language: Language, instance: EventorInstance): string {
  return isInstanceName(instance.name) ? t(language, `setup.instance.${instance.name}`) : instance.label;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A base URL an admin typed, as an instance; a preset's own address becomes the preset. Any other
 * address must be on the operator's list, or any admin could point the bot at any host.
 */
export function parseBaseUrl(raw: string, allowedOrigins: readonly string[]): EventorInstance | { reason: PlainKey } {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return { reason: 'setup.url.notUrl' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { reason: 'setup.url.notUrl' };
  // The key goes in a header of every request: plain http only where it never leaves the machine.
  if (url.protocol === 'http:' && !isLoopback(url.hostname)) return { reason: 'setup.url.notHttps' };
  if (url.username || url.password) return { reason: 'setup.url.credentials' };
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) return { reason: 'setup.url.query' };
  if (url.pathname === '/') url.pathname = '/api';
  const instance = customInstance(url.href);
  const preset = Object.values(INSTANCES).find((p) => p.baseUrl === instance.baseUrl);
  if (preset) return preset;
  if (!allowedOrigins.includes(url.origin)) return { reason: 'setup.url.notAllowed' };
  return instance;
}

/**
 * The server whose settings change. Who may change them is declared on /setup, /feeds and the key
 * form (`requires: { permission: 'manageGuild' }`) and checked by the router before this runs.
 */
export function settingsServer(ctx: CommandContext | ComponentContext): string {
  if (!ctx.interaction.inGuild()) throw new UserFacingError('setup.guildOnly');
  return ctx.interaction.guildId;
}

export async function startEventorSetup(ctx: CommandContext): Promise<void> {
  const guildId = settingsServer(ctx);
  const name = ctx.interaction.options.getString('instance');
  const baseUrl = ctx.interaction.options.getString('base_url');
  if ((name === null) === (baseUrl === null)) throw new UserFacingError('setup.eventor.chooseOne');
  let id: string;
  if (name !== null) {
    if (!isInstanceName(name)) throw new UserFacingError('setup.eventor.chooseOne');
    id = keyFormId.encode({ instance: name });
  } else {
    const parsed = parseBaseUrl(baseUrl!, ctx.customEventorOrigins);
    if ('reason' in parsed) {
      // Echoed to the admin alone, and without any user name or password it may hold.
      const shown = baseUrl!.replace(/\/\/[^/@]*@/, '//').slice(0, 200);
      throw new UserFacingError('setup.url.invalid', { url: shown, reason: t(ctx.language, parsed.reason) });
    }
    if (isInstanceName(parsed.name)) {
      id = keyFormId.encode({ instance: parsed.name });
    } else {
      const now = ctx.now().getTime();
      prune(now);
      const ref = randomBytes(12).toString('base64url');
      pending.set(ref, { guildId, userId: ctx.interaction.user.id, baseUrl: parsed.baseUrl, expiresAt: now + PENDING_TTL_MS });
      id = keyFormId.encode({ instance: 'custom', ref });
    }
  }
  const modal = new ModalBuilder()
    .setCustomId(id)
    .setTitle(ctx.t('setup.modal.title'))
    .addLabelComponents(
      new LabelBuilder()
        .setLabel(ctx.t('setup.modal.label'))
        .setDescription(ctx.t('setup.modal.hint'))
        .setTextInputComponent(
          new TextInputBuilder().setCustomId(KEY_INPUT).setStyle(TextInputStyle.Short).setMinLength(KEY_MIN).setMaxLength(KEY_MAX).setRequired(true),
        ),
    );
  await ctx.interaction.showModal(modal);
}

/** The instance a submitted modal is for, from the custom id and (for a custom one) the server-side note. */
function instanceFor(ctx: ComponentContext, guildId: string, { instance: name, ref }: CustomIdValue<typeof keyFormId>): { instance: EventorInstance; ref: string | null } {
  if (isInstanceName(name)) return { instance: INSTANCES[name], ref: null };
  const entry = name === 'custom' && ref !== undefined ? pending.get(ref) : undefined;
  if (!entry || entry.expiresAt <= ctx.now().getTime() || entry.guildId !== guildId || entry.userId !== ctx.interaction.user.id) {
    throw new UserFacingError('setup.key.expired');
  }
  return { instance: customInstance(entry.baseUrl), ref: ref ?? null };
}

export async function submitKey(ctx: ComponentContext, form: CustomIdValue<typeof keyFormId>): Promise<void> {
  if (!ctx.interaction.isModalSubmit()) throw new UserFacingError('setup.key.expired');
  const raw = ctx.interaction.fields.getTextInputValue(KEY_INPUT);
  const apiKey = raw.trim();
  // Before anything else can log: from here on the key is masked in every line.
  ctx.log.redact(raw);
  ctx.log.redact(apiKey);
  const guildId = settingsServer(ctx);
  const { instance, ref } = instanceFor(ctx, guildId, form);
  const label = instanceLabel(ctx.language, instance);
  if (!KEY_SHAPE.test(apiKey)) throw new UserFacingError('setup.key.badShape');

  // A client of its own, without cache: the answer must be Eventor's verdict on this key now.
  const client = new EventorClient({ instance, apiKey, retries: CHECK_RETRIES, timeoutMs: CHECK_TIMEOUT_MS, cache: false });
  let organisation: { id: string; name: string };
  try {
    organisation = await client.organisationForApiKey();
  } catch (error) {
    if (!(error instanceof EventorError)) throw error;
    ctx.log.warn('eventor key check failed', { instance: instance.baseUrl, error });
    if (error.code === 'InvalidApiKey') throw new UserFacingError('setup.key.refused', { instance: label });
    const custom = !isInstanceName(instance.name);
    if (custom && (error.code === 'NotFound' || error.code === 'InvalidResponse')) throw new UserFacingError('setup.key.notEventor', { url: instance.baseUrl });
    throw new UserFacingError('setup.key.unavailable', { instance: label });
  } finally {
    await client.close().catch(() => undefined);
  }
  const before = await currentConnection(ctx);
  // Person ids are per instance, and a club's key reaches only its own members: links made
  // under another Eventor or club name someone else, or someone this key must not log in as.
  const moved = before === null || before.baseUrl !== instance.baseUrl || before.organisationId !== organisation.id;
  const { forgotten } = connectEventor(
    ctx.store,
    guildId,
    { instance: instance.name, baseUrl: isInstanceName(instance.name) ? null : instance.baseUrl, apiKey, organisation: { id: organisation.id, name: organisation.name } },
    { forgetMembers: moved, actorId: ctx.interaction.user.id },
  );
  if (ref) pending.delete(ref);
  ctx.log.info('server connected to eventor', { instance: instance.baseUrl, organisation: organisation.id, moved, forgotten: forgotten ? forgotten.links + forgotten.requests + forgotten.subscriptions : 0 });
  const connected = ctx.t('setup.key.connected', { club: escapeName(organisation.name), instance: label });
  if (!forgotten) {
    await ctx.interaction.editReply({ content: connected });
    return;
  }
  const removed = ctx.t('setup.moved.removed', { links: forgotten.links, requests: forgotten.requests, subscriptions: forgotten.subscriptions });
  await ctx.interaction.editReply({ content: `${connected}\n${removed}` });
  await tellMembersMoved(ctx, forgotten.members, organisation.name);
}

/**
 * The Eventor and club the server uses now, or null when it has none or it cannot be told (a
 * default connection that is not answering): then the new one counts as a move, because links
 * nobody can show to be of the same club are not kept.
 */
async function currentConnection(ctx: ComponentContext): Promise<{ baseUrl: string; organisationId: string } | null> {
  try {
    const eventor = await ctx.guild.eventor();
    return { baseUrl: eventor.instance.baseUrl, organisationId: eventor.organisationId };
  } catch (error) {
    ctx.log.info('the previous eventor connection could not be told; treating the new one as a move', { error });
    return null;
  }
}

/**
 * Tells each member whose links went, once, by DM. Best effort and bounded in count and time, and
 * it never fails the setup (which is done): closed DMs or a member who left are skipped.
 */
async function tellMembersMoved(ctx: ComponentContext, members: ReadonlyArray<{ userId: string; locale: string | null }>, club: string): Promise<void> {
  const server = escapeName(ctx.interaction.guild?.name ?? '');
  const deadline = ctx.now().getTime() + MOVE_NOTICES_MS;
  let told = 0;
  let skipped = 0;
  for (const member of members.slice(0, MOVE_NOTICES_MAX)) {
    if (ctx.now().getTime() > deadline) break;
    const language = member.locale ? languageFor(member.locale) : ctx.guild.language;
    try {
      await ctx.interaction.client.users.send(member.userId, { content: t(language, 'setup.moved.dm', { server, club: escapeName(club) }), allowedMentions: { parse: [] } });
      told += 1;
    } catch (error) {
      skipped += 1;
      // Only the code: Discord's error object carries the request.
      const code = (error as { code?: unknown } | null)?.code;
      ctx.log.info('could not tell a member by DM that their links went', { code: typeof code === 'number' || typeof code === 'string' ? code : null });
    }
  }
  ctx.log.info('members told that their links went', { told, skipped, untold: members.length - told - skipped });
}
