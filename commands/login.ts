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
import { type BaseContext, type BotCommand, customIdCodec, onComponent, UserFacingError } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { fold } from '../src/text/fold.js';
import { DISCORD_LIMITS, escapeName, personNameText, plainText } from '../src/render/index.js';
import { LOGIN_BUTTON_ID } from '../src/render/login-button.js';

const DMS_CLOSED = 50007;

/**
 * The "Log in to Eventor" button of posts. Its id is fixed where the posts are rendered, since
 * posts already out carry it; it names no person, so the clicker gets their own link.
 */
const loginButtonId = customIdCodec(LOGIN_BUTTON_ID, z.object({}));

const unix = (ms: number): number => Math.ceil(ms / 1000);

/** Gets the person's link from the login-links service (which checks, throttles and audits) and DMs it to `user`. */
async function sendLink(ctx: BaseContext, user: User, personId: string): Promise<void> {
  const guildId = ctx.guild.id;
  if (guildId === null) throw new UserFacingError('error.notLinked');
  const { url, message: content } = await ctx.services.loginLinks.issue(
    () => ctx.guild.eventor(),
    { guildId, userId: user.id, language: ctx.language },
    personId,
    (person, expiresAt) => {
      // The DM is written, and checked to fit, before Eventor issues a live link: nothing in the
      // person's name (Eventor's text) can make the DM fail once the link exists.
      const text = ctx.t('login.dm', {
        name: escapeName(personNameText(person.name)),
        expires: `<t:${unix(expiresAt)}:R>`,
      });
      if (text.length > DISCORD_LIMITS.content) throw new UserFacingError('login.error.dmFailed');
      return text;
    },
    ctx.log,
  );
  try {
    await user.send({
      content,
      components: [
        {
          type: ComponentType.ActionRow,
          components: [
            { type: ComponentType.Button, style: ButtonStyle.Link, label: ctx.t('login.button.label'), url },
          ],
        },
      ],
    });
  } catch (error) {
    // Only the code is kept: Discord's error object carries the request body, link included.
    const code = (error as { code?: unknown } | null)?.code;
    if (code === DMS_CLOSED) throw new UserFacingError('login.error.dmsClosed');
    ctx.log.warn('could not send the login link by DM', {
      code: typeof code === 'number' || typeof code === 'string' ? code : null,
    });
    throw new UserFacingError('login.error.dmFailed');
  }
}

export const loginCommand: BotCommand = {
  definition: localizedCommand('login.name', 'login.description')
    .setContexts(InteractionContextType.Guild)
    .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
    .addStringOption((o) =>
      localize(o, 'login.option.person.name', 'login.option.person.description').setAutocomplete(true),
    )
    .toJSON(),
  defer: 'ephemeral',
  // Not `linked: 'credentials'`: a login needs the person's own password link, but issue() checks
  // that per person, and its refusal names the person and how they are linked (say, a child an
  // admin linked) with the way to fix it, which the router's one message would replace.
  requires: { linked: 'any' },
  async execute(ctx) {
    const user = ctx.interaction.user;
    const personId = await ctx.services.loginLinks.chosenPerson(
      ctx.guild.id,
      user.id,
      ctx.interaction.options.getString('person')?.trim(),
    );
    await sendLink(ctx, user, personId);
    await ctx.answer({ content: ctx.t('login.sent') });
  },
  async autocomplete(ctx) {
    // Only the persons a login link can be made for.
    const linked = await ctx.services.loginLinks.provenPersons(ctx.guild.id, ctx.interaction.user.id);
    if (linked.length === 0) return [];
    const eventor = await ctx.guild.eventor();
    const typed = fold(String(ctx.interaction.options.getFocused()));
    const choices = await Promise.all(
      linked.map(async (p) => ({
        name:
          plainText((await ctx.services.club.memberName(eventor, p.personId)) ?? '', 100) ||
          plainText(p.personId, 100) ||
          '?',
        value: p.personId,
      })),
    );
    return choices.filter((c) => typed === '' || fold(c.name).includes(typed) || c.value.startsWith(typed));
  },
  components: [
    onComponent(loginButtonId, {
      defer: 'ephemeral',
      // As the command: the per-person refusal of issue() says more than the declared one would.
      requires: { linked: 'any' },
      async handle(ctx) {
        // Whoever posted the button, the clicker gets a link for their own person only.
        const user = ctx.interaction.user;
        await sendLink(ctx, user, await ctx.services.loginLinks.defaultPerson(ctx.guild.id, user.id));
        await ctx.answer({ content: ctx.t('login.sent') });
      },
    }),
  ],
};
