/**
 * /admin (Manage Server only, declared for the router to check on every subcommand and button): link a member directly,
 * list and remove the server's links, and read the audit log.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  EmbedBuilder,
  InteractionContextType,
  PermissionFlagsBits,
} from 'discord.js';
import { z } from 'zod';
import { LINK_METHODS } from '../src/app/linking.js';
import { EVENTOR_MOVED } from '../src/app/privacy.js';
import {
  type BaseContext,
  type BotCommand,
  type CommandContext,
  type ComponentContext,
  type CustomIdValue,
  customIdCodec,
  idField,
  onComponent,
  UserFacingError,
} from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { memberChoices } from '../src/bot/lookup.js';
import { personLabel, personNames, when } from '../src/bot/members.js';
import type { PlainKey } from '../src/i18n/index.js';

/** Links listed per answer: each gets an unlink button, and a message holds at most 25 buttons. */
const LINKS_SHOWN = 20;
const AUDIT_SHOWN = 25;
const EMBED_TEXT = 4_000;

/** The unlink button of one link in the list: whose link, to which person. */
export const adminUnlinkId = customIdCodec('admin:unlink', z.object({ userId: idField(), personId: idField() }));

const definition = localizedCommand('linking.admin.name', 'linking.admin.description')
  .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) =>
    localize(sub, 'linking.admin.link.name', 'linking.admin.link.description')
      .addUserOption((o) =>
        localize(o, 'linking.option.member.name', 'linking.option.member.description').setRequired(true),
      )
      .addStringOption((o) =>
        localize(o, 'linking.option.person.name', 'linking.option.person.description')
          .setRequired(true)
          .setAutocomplete(true)
          .setMaxLength(100),
      ),
  )
  .addSubcommand((sub) => localize(sub, 'linking.admin.links.name', 'linking.admin.links.description'))
  .addSubcommand((sub) => localize(sub, 'linking.admin.audit.name', 'linking.admin.audit.description'))
  .toJSON();

async function adminLink(ctx: CommandContext, guildId: string): Promise<void> {
  const user = ctx.interaction.options.getUser('member', true);
  if (user.bot) throw new UserFacingError('linking.admin.notBot');
  const eventor = await ctx.guild.eventor();
  const { person, method } = await ctx.services.linking.adminLink(
    eventor,
    { guildId, adminId: ctx.interaction.user.id, userId: user.id },
    ctx.interaction.options.getString('person', true),
    ctx.log,
  );
  const note =
    method === 'admin'
      ? ctx.t('linking.admin.readOnly')
      : ctx.t('linking.admin.keptMethod', { method: ctx.t(`linking.method.${method}`) });
  await ctx.answer({
    content: `${ctx.t('linking.admin.linked', { user: `<@${user.id}>`, person: personLabel(person) })}\n${note}`,
    allowedMentions: { parse: [] },
  });
}

async function linksPage(
  ctx: BaseContext,
  guildId: string,
  notice: string | null,
): Promise<{ content: string; embeds: EmbedBuilder[]; components: ActionRowBuilder<ButtonBuilder>[] }> {
  const links = await ctx.services.linking.guildLinks(guildId);
  const shown = links.slice(0, LINKS_SHOWN);
  const names = await personNames(ctx, [...new Set(shown.map((l) => l.personId))]);
  const lines = shown.map((l, i) => {
    const star = l.isDefault ? ` ${ctx.t('linking.whoami.default')}` : '';
    return `${i + 1}. <@${l.userId}> → ${names.get(l.personId)} · ${ctx.t(`linking.method.${l.method}`)} · ${when(l.linkedAt)}${star}`;
  });
  if (links.length > shown.length)
    lines.push(ctx.t('linking.admin.links.more', { count: links.length - shown.length }));
  const embed = new EmbedBuilder()
    .setTitle(ctx.t('linking.admin.links.title', { count: links.length }))
    .setDescription(lines.length > 0 ? lines.join('\n') : ctx.t('linking.admin.links.none'));
  const buttons = shown.map((l, i) =>
    new ButtonBuilder()
      .setCustomId(adminUnlinkId.encode({ userId: l.userId, personId: l.personId }))
      .setStyle(ButtonStyle.Secondary)
      .setLabel(ctx.t('linking.admin.unlinkButton', { n: i + 1 })),
  );
  const rows: ActionRowBuilder<ButtonBuilder>[] = [];
  for (let i = 0; i < buttons.length; i += 5)
    rows.push(new ActionRowBuilder<ButtonBuilder>().addComponents(buttons.slice(i, i + 5)));
  return { content: notice ?? '', embeds: [embed], components: rows };
}

async function unlinkClicked(
  ctx: ComponentContext,
  { userId, personId }: CustomIdValue<typeof adminUnlinkId>,
): Promise<void> {
  const guildId = guildOf(ctx);
  const names = await personNames(ctx, [personId]);
  let notice: string;
  if (await ctx.services.linking.unlink(guildId, userId, personId, ctx.interaction.user.id)) {
    notice = ctx.t('linking.admin.unlinked', { user: `<@${userId}>`, person: names.get(personId)! });
  } else {
    notice = ctx.t('linking.admin.alreadyUnlinked');
  }
  await ctx.answer({ ...(await linksPage(ctx, guildId, notice)), allowedMentions: { parse: [] } });
}

/** The methods a link's audit line may name. */

function actionLabel(ctx: BaseContext, action: string, detail: string | null): string {
  const known: Record<string, PlainKey> = {
    link: 'linking.audit.link',
    'link-request': 'linking.audit.request',
    'link-deny': 'linking.audit.deny',
    'link-default': 'linking.audit.default',
    'link-failed': 'linking.audit.failed',
    unlink: 'linking.audit.unlink',
    'login-link': 'linking.audit.loginLink',
    card: 'linking.audit.card',
    'cup-create': 'cup.audit.create',
    'cup-edit': 'cup.audit.edit',
    'cup-delete': 'cup.audit.delete',
  };
  if (action === EVENTOR_MOVED) {
    const [links = '0', requests = '0', subscriptions = '0'] = (detail ?? '').split(' ');
    return ctx.t('linking.audit.moved', { links, requests, subscriptions });
  }
  const key = known[action];
  // An action this version does not know (written by a newer or older one): said in words, never as its code or detail.
  if (!key) return ctx.t('linking.audit.other');
  const label = ctx.t(key);
  // The detail of a link is its method; one this version does not know is left out rather than shown as a code.
  const method = action === 'link' ? LINK_METHODS.find((m) => m === detail) : undefined;
  return method ? `${label} (${ctx.t(`linking.method.${method}`)})` : label;
}

async function audit(ctx: CommandContext, guildId: string): Promise<void> {
  const entries = await ctx.services.audit.recent(guildId, AUDIT_SHOWN);
  const names = await personNames(ctx, [...new Set(entries.flatMap((e) => (e.personId ? [e.personId] : [])))]);
  const lines: string[] = [];
  let length = 0;
  for (const e of entries) {
    const parts = [when(e.at, 'f'), `<@${e.actorId}>`, actionLabel(ctx, e.action, e.detail)];
    if (e.subjectId && e.subjectId !== e.actorId) parts.push(ctx.t('linking.audit.for', { user: `<@${e.subjectId}>` }));
    if (e.personId) parts.push(names.get(e.personId)!);
    const line = parts.join(' · ');
    if (length + line.length + 1 > EMBED_TEXT) break;
    lines.push(line);
    length += line.length + 1;
  }
  const embed = new EmbedBuilder()
    .setTitle(ctx.t('linking.audit.title'))
    .setDescription(lines.length > 0 ? lines.join('\n') : ctx.t('linking.audit.none'));
  await ctx.answer({ embeds: [embed], allowedMentions: { parse: [] } });
}

export const admin: BotCommand = {
  definition,
  defer: 'ephemeral',
  requires: { permission: 'manageGuild' },
  subcommands: {
    link: (ctx) => adminLink(ctx, guildOf(ctx)),
    links: async (ctx) => {
      await ctx.answer({
        ...(await linksPage(ctx, guildOf(ctx), null)),
        allowedMentions: { parse: [] },
      });
    },
    audit: (ctx) => audit(ctx, guildOf(ctx)),
  },
  async autocomplete(ctx) {
    const eventor = await ctx.guild.eventor();
    return memberChoices(eventor.client, eventor.organisationId, String(ctx.interaction.options.getFocused()));
  },
  components: [
    onComponent(adminUnlinkId, { defer: 'update', requires: { permission: 'manageGuild' }, handle: unlinkClicked }),
  ],
};
