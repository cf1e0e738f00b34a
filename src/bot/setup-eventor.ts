/**
 * The Discord side of `/setup eventor` (the command's subcommand lives in commands/setup.ts; the
 * connecting itself in the setup service, src/app/setup.ts): which Eventor, then the API key in a modal (slash options stay visible in the
 * member's client history, a modal's text does not), checked with Eventor at once and stored
 * only when Eventor accepts it. Moving to another Eventor or club forgets the members' links,
 * requests and `/notify` subscriptions in the same step, and tells them by DM.
 */
import { LabelBuilder, ModalBuilder, TextInputBuilder, TextInputStyle } from 'discord.js';
import { z } from 'zod';
import { KEY_MAX, KEY_MIN, parseBaseUrl } from '../app/setup.js';
import { type EventorInstance, INSTANCES, type InstanceName, isInstanceName } from '../eventor/instances.js';
import type { Language } from '../i18n/index.js';
import { languageFor, t } from '../i18n/index.js';
import { escapeName } from '../render/index.js';
import {
  type CommandContext,
  type ComponentContext,
  type CustomIdValue,
  customIdCodec,
  UserFacingError,
} from './command.js';
import { settingsServer } from './guards.js';

export const INSTANCE_NAMES = Object.keys(INSTANCES) as InstanceName[];
export const KEY_INPUT = 'key';
/** DMs telling members their links went when the server moved: a bounded courtesy, not a broadcast. */
const MOVE_NOTICES_MAX = 250;
const MOVE_NOTICES_MS = 2 * 60_000;

/**
 * The key form: a preset instance's name, or `custom` and the reference of the base URL kept in
 * the setup service's pending connections (12 random bytes, base64url).
 */
export const keyFormId = customIdCodec(
  'setup:key',
  z.object({
    // Preset names hold hyphens (`no-se-host`).
    instance: z.string().regex(/^[a-z][a-z-]{0,19}$/),
    ref: z
      .string()
      .regex(/^[\w-]{16}$/)
      .optional(),
  }),
);

/** An instance's name in the member's language; a custom Eventor goes by its host. */
export function instanceLabel(language: Language, instance: EventorInstance): string {
  return isInstanceName(instance.name) ? t(language, `setup.instance.${instance.name}`) : instance.label;
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
      const ref = ctx.services.setup.rememberCustom(guildId, ctx.interaction.user.id, parsed.baseUrl);
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
          new TextInputBuilder()
            .setCustomId(KEY_INPUT)
            .setStyle(TextInputStyle.Short)
            .setMinLength(KEY_MIN)
            .setMaxLength(KEY_MAX)
            .setRequired(true),
        ),
    );
  await ctx.interaction.showModal(modal);
}

export async function submitKey(ctx: ComponentContext, form: CustomIdValue<typeof keyFormId>): Promise<void> {
  if (!ctx.interaction.isModalSubmit()) throw new UserFacingError('setup.key.expired');
  const raw = ctx.interaction.fields.getTextInputValue(KEY_INPUT);
  const apiKey = raw.trim();
  // Before anything else can log: from here on the key is masked in every line.
  ctx.log.redact(raw);
  ctx.log.redact(apiKey);
  const guildId = settingsServer(ctx);
  const { instance, ref } = ctx.services.setup.instanceFor(form, guildId, ctx.interaction.user.id);
  const label = instanceLabel(ctx.language, instance);
  ctx.services.setup.requireKeyShape(apiKey);
  const organisation = await ctx.services.setup.checkKey(instance, apiKey, label, ctx.log);
  const { forgotten } = await ctx.services.setup.connect(
    () => ctx.guild.eventor(),
    { guildId, actorId: ctx.interaction.user.id },
    instance,
    apiKey,
    organisation,
    ref,
    ctx.log,
  );
  const connected = ctx.t('setup.key.connected', { club: escapeName(organisation.name), instance: label });
  if (!forgotten) {
    await ctx.answer({ content: connected });
    return;
  }
  const removed = ctx.t('setup.moved.removed', {
    links: forgotten.links,
    requests: forgotten.requests,
    subscriptions: forgotten.subscriptions,
  });
  await ctx.answer({ content: `${connected}\n${removed}` });
  await tellMembersMoved(ctx, forgotten.members, organisation.name);
}

/**
 * Tells each member whose links went, once, by DM. Best effort and bounded in count and time, and
 * it never fails the setup (which is done): closed DMs or a member who left are skipped.
 */
async function tellMembersMoved(
  ctx: ComponentContext,
  members: ReadonlyArray<{ userId: string; locale: string | null }>,
  club: string,
): Promise<void> {
  const server = escapeName(ctx.interaction.guild?.name ?? '');
  const deadline = ctx.now().getTime() + MOVE_NOTICES_MS;
  let told = 0;
  let skipped = 0;
  for (const member of members.slice(0, MOVE_NOTICES_MAX)) {
    if (ctx.now().getTime() > deadline) break;
    const language = member.locale ? languageFor(member.locale) : ctx.guild.language;
    try {
      await ctx.interaction.client.users.send(member.userId, {
        content: t(language, 'setup.moved.dm', { server, club: escapeName(club) }),
        allowedMentions: { parse: [] },
      });
      told += 1;
    } catch (error) {
      skipped += 1;
      // Only the code: Discord's error object carries the request.
      const code = (error as { code?: unknown } | null)?.code;
      ctx.log.info('could not tell a member by DM that their links went', {
        code: typeof code === 'number' || typeof code === 'string' ? code : null,
      });
    }
  }
  ctx.log.info('members told that their links went', { told, skipped, untold: members.length - told - skipped });
}
