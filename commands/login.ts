/**
 * /login [person]: a one-time Eventor login link for one of the member's own linked persons, by
 * DM only. Also handles the "Log in to Eventor" button (`login:button`) any post can carry. Only
 * for persons the member linked with the person's Eventor password (`/link eventor`), and who
 * are members of the server's club when the link is asked for.
 *
 * The link logs its holder in as that person, so it goes nowhere but the member's DMs: it is
 * registered with the logger's redaction the moment it arrives, and it never enters an error, the
 * audit log or a channel reply.
 */
import { ApplicationIntegrationType, ButtonStyle, ComponentType, InteractionContextType, type User } from 'discord.js';
import { z } from 'zod';
import { customIdCodec, onComponent, UserFacingError, type BaseContext, type BotCommand } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { fold } from '../src/bot/lookup.js';
import { DISCORD_LIMITS, escapeName, personNameText, plainText } from '../src/render/index.js';
import { PROVEN_LINK, type LinkedPerson } from '../src/store/store.js';
import { LOGIN_BUTTON_ID } from '../src/render/login-button.js';
import { clubMember, requireProvenLink } from './linking-common.js';
import { memberName } from './members-common.js';

/** Links per Discord user, across servers and persons: each is a live login to Eventor. */
const LOGIN_SCOPE = 'login-link';
const WINDOW_MS = 10 * 60 * 1000;
const LINKS_PER_WINDOW = 3;
const LINK_LIFETIME_MS = 5 * 60 * 1000;
const DMS_CLOSED = 50007;

/**
 * The "Log in to Eventor" button of posts. Its id is fixed where the posts are rendered, since
 * posts already out carry it; it names no person, so the clicker gets their own link.
 */
const loginButtonId = customIdCodec(LOGIN_BUTTON_ID, z.object({}));

const unix = (ms: number): number => Math.ceil(ms / 1000);

/**
 * Takes one of the member's links for this window, or refuses a fourth, naming when the oldest of
 * the three leaves it. Counted per Discord user in every server and for every linked person
 * together, in the store's throttle table (a keyed hash of the user id and the times only), so
 * parallel commands cannot all pass, and /forget-me, which empties everything else, does not reset it.
 */
function takeLink(ctx: BaseContext, userId: string): number {
  const taken = ctx.store.takeThrottle(LOGIN_SCOPE, userId, LINKS_PER_WINDOW, WINDOW_MS);
  if (taken.attempt === null) throw new UserFacingError('login.cooldown', { when: `<t:${unix((taken.retryAt ?? ctx.now()).getTime())}:R>` });
  return taken.attempt;
}

/**
 * The person a login is for when the member names none: the first of their persons (the default
 * comes first) linked with the Eventor password, say a parent's own when their default is a child
 * an admin linked. Without any, the default, which `sendLink` refuses with the way to upgrade.
 */
function loginPersonOf(linked: readonly LinkedPerson[]): string {
  const person = linked.find((p) => p.method === PROVEN_LINK) ?? linked[0];
  if (!person) throw new UserFacingError('error.notLinked');
  return person.personId;
}

/** Asks Eventor for the person's link and DMs it to `user`, once the person is checked to be theirs to log in as. */
async function sendLink(ctx: BaseContext, user: User, personId: string): Promise<void> {
  const guildId = ctx.guild.id;
  if (guildId === null) throw new UserFacingError('error.notLinked');
  // Checked here, where the link is made, whichever way the member asked.
  await requireProvenLink(ctx, user.id, personId, { notLinked: 'login.error.notYours', notProven: 'login.error.notProven' });
  // Taken before Eventor is asked: the check and the record are one step.
  const attempt = takeLink(ctx, user.id);
  let url: string;
  let content: string;
  try {
    const eventor = await ctx.guild.eventor();
    // Eventor's member list now, not the client's day-old copy: whoever left the club (or a server
    // now on another club's key) gets no login, and Eventor is not even asked for one.
    const person = await clubMember(eventor, personId, { fresh: true });
    if (!person) throw new UserFacingError('login.error.notInClub');
    // The DM is written, and checked to fit, before Eventor issues a live link: nothing in the
    // person's name (Eventor's text) can make the DM fail once the link exists.
    const expires = `<t:${unix(ctx.now().getTime() + LINK_LIFETIME_MS)}:R>`;
    content = ctx.t('login.dm', { name: escapeName(personNameText(person.name)), expires });
    if (content.length > DISCORD_LIMITS.content) throw new UserFacingError('login.error.dmFailed');
    url = await eventor.client.externalLoginUrl({ personId, organisationId: eventor.organisationId });
  } catch (error) {
    // No link was issued, so none can be abused: the attempt is given back, and a member who met
    // an Eventor outage is not locked out for ten minutes by retrying. What Eventor is asked is
    // bounded anyway, by the per-member cooldown on commands that call it.
    ctx.store.giveBackThrottle(LOGIN_SCOPE, user.id, attempt);
    throw error;
  }
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
  requires: { linked: 'any' },
  async execute(ctx) {
    const user = ctx.interaction.user;
    const linked = ctx.guild.id ? ctx.store.linkedPersons(ctx.guild.id, user.id) : [];
    const asked = ctx.interaction.options.getString('person')?.trim();
    // The option is free text a member can type: only their own links count.
    const personId = asked ? linked.find((p) => p.personId === asked)?.personId : loginPersonOf(linked);
    if (personId === undefined) throw new UserFacingError('login.error.notYours');
    await sendLink(ctx, user, personId);
    await ctx.interaction.editReply({ content: ctx.t('login.sent') });
  },
  async autocomplete(ctx) {
    // Only the persons a login link can be made for.
    const linked = (ctx.guild.id ? ctx.store.linkedPersons(ctx.guild.id, ctx.interaction.user.id) : []).filter((p) => p.method === PROVEN_LINK);
    if (linked.length === 0) return [];
    const eventor = await ctx.guild.eventor();
    const typed = fold(String(ctx.interaction.options.getFocused()));
    const choices = await Promise.all(linked.map(async (p) => ({ name: plainText((await memberName(eventor, p.personId)) ?? '', 100) || p.personId, value: p.personId })));
    return choices.filter((c) => typed === '' || fold(c.name).includes(typed) || c.value.startsWith(typed));
  },
  components: [
    onComponent(loginButtonId, {
      defer: 'ephemeral',
      requires: { linked: 'any' },
      async handle(ctx) {
        // Whoever posted the button, the clicker gets a link for their own person only.
        const user = ctx.interaction.user;
        await sendLink(ctx, user, loginPersonOf(ctx.guild.id ? ctx.store.linkedPersons(ctx.guild.id, user.id) : []));
        await ctx.interaction.editReply({ content: ctx.t('login.sent') });
      },
    }),
  ],
};
