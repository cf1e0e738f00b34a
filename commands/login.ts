/**
 * /login [person]: a one-time Eventor login link for one of the member's own linked persons, by
 * DM only. Also handles the "Log in to Eventor" button (`login:button`) any post can carry.
 *
 * The link logs its holder in as that person, so it goes nowhere but the member's DMs: it is
 * registered with the logger's redaction the moment it arrives, and it never enters an error, the
 * audit log or a channel reply.
 */
import { ApplicationIntegrationType, ButtonStyle, ComponentType, InteractionContextType, type User } from 'discord.js';
import { UserFacingError, type BaseContext, type BotCommand } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { fold } from '../src/bot/lookup.js';
import { DISCORD_LIMITS, escapeName, plainText } from '../src/render/index.js';
import { memberName, ownPersonId } from './members-common.js';

const WINDOW_MS = 10 * 60 * 1000;
const LINKS_PER_WINDOW = 3;
const LINK_LIFETIME_MS = 5 * 60 * 1000;
const DMS_CLOSED = 50007;

const unix = (ms: number): number => Math.ceil(ms / 1000);

/** Refuses a fourth link within the window, naming when the oldest of the three leaves it. */
function checkRate(ctx: BaseContext, guildId: string, userId: string): void {
  const now = ctx.now().getTime();
  const recent = ctx.store.recentActions(guildId, userId, 'login-link', new Date(now - WINDOW_MS));
  if (recent.count < LINKS_PER_WINDOW) return;
  const oldest = recent.oldest ? Date.parse(recent.oldest) : now;
  throw new UserFacingError('login.cooldown', { when: `<t:${unix(oldest + WINDOW_MS)}:R>` });
}

/** Asks Eventor for the person's link and DMs it to `user`; the caller has checked the person is theirs. */
async function sendLink(ctx: BaseContext, user: User, personId: string): Promise<void> {
  const guildId = ctx.guild.id;
  if (guildId === null) throw new UserFacingError('error.notLinked');
  checkRate(ctx, guildId, user.id);
  const eventor = await ctx.guild.eventor();
  // The DM is written, and checked to fit, before Eventor issues a live link: nothing in the
  // person's name (Eventor's text) can make the DM fail once the link exists.
  const name = escapeName((await memberName(eventor, personId)) ?? personId);
  const expires = `<t:${unix(ctx.now().getTime() + LINK_LIFETIME_MS)}:R>`;
  const content = ctx.t('login.dm', { name, expires });
  if (content.length > DISCORD_LIMITS.content) throw new UserFacingError('login.error.dmFailed');
  const url = await eventor.client.externalLoginUrl({ personId, organisationId: eventor.organisationId });
  ctx.log.redact(url, 'transient');
  // Counted once Eventor has issued a link, delivered or not: each one is a live login.
  ctx.store.audit({ guildId, actorId: user.id, personId, action: 'login-link' });
  try {
    await user.send({
      content,
      components: [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Link, label: ctx.t('login.button.label'), url }] }],
    });
  } catch (error) {
    // Only the code is kept: Discord's error object carries the request body, link included.
    const code = (error as { code?: unknown } | null)?.code;
    if (code === DMS_CLOSED) throw new UserFacingError('login.error.dmsClosed');
    ctx.log.warn('could not send the login link by DM', { code: typeof code === 'number' || typeof code === 'string' ? code : null });
    throw new UserFacingError('login.error.dmFailed');
  }
}

export const loginCommand: BotCommand = {
  definition: localizedCommand('login.name', 'login.description')
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((o) => localize(o, 'login.option.person.name', 'login.option.person.description').setAutocomplete(true))
    .toJSON(),
  defer: 'ephemeral',
  async execute(ctx) {
    const user = ctx.interaction.user;
    const linked = ctx.guild.id ? ctx.store.linkedPersons(ctx.guild.id, user.id) : [];
    if (linked.length === 0) throw new UserFacingError('error.notLinked');
    const asked = ctx.interaction.options.getString('person')?.trim();
    // The option is free text a member can type: only their own links count.
    const personId = asked ? linked.find((p) => p.personId === asked)?.personId : linked[0]!.personId;
    if (personId === undefined) throw new UserFacingError('login.error.notYours');
    await sendLink(ctx, user, personId);
    await ctx.interaction.editReply({ content: ctx.t('login.sent') });
  },
  async autocomplete(ctx) {
    const linked = ctx.guild.id ? ctx.store.linkedPersons(ctx.guild.id, ctx.interaction.user.id) : [];
    if (linked.length === 0) return [];
    const eventor = await ctx.guild.eventor();
    const typed = fold(String(ctx.interaction.options.getFocused()));
    const choices = await Promise.all(linked.map(async (p) => ({ name: plainText((await memberName(eventor, p.personId)) ?? '', 100) || p.personId, value: p.personId })));
    return choices.filter((c) => typed === '' || fold(c.name).includes(typed) || c.value.startsWith(typed));
  },
  components: {
    button: {
      defer: 'ephemeral',
      async handle(ctx) {
        // Whoever posted the button, the clicker gets a link for their own default person only.
        const user = ctx.interaction.user;
        await sendLink(ctx, user, ownPersonId(ctx, user.id));
        await ctx.interaction.editReply({ content: ctx.t('login.sent') });
      },
    },
  },
};
