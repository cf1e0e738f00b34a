/**
 * /activity <activity>: one club activity, with its information text, registrations and deadline.
 */
import { type BotCommand, UserFacingError } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { activityChoices } from '../src/bot/lookup.js';
import { renderContext, showPage } from '../src/bot/render-context.js';
import { EventorError } from '../src/eventor/errors.js';
import type { Activity } from '../src/eventor/answers.js';
import { renderActivity } from '../src/render/index.js';

const ID = /^\d{1,18}$/;

export const activity: BotCommand = {
  definition: localizedCommand('members.activity.name', 'members.activity.description')
    .addStringOption((o) =>
      localize(o, 'members.option.activity.name', 'members.option.activity.description')
        .setRequired(true)
        .setAutocomplete(true),
    )
    .toJSON(),
  // Text typed without picking from the list gets its error privately.
  defer: (interaction) => (ID.test(interaction.options.getString('activity', true).trim()) ? 'public' : 'ephemeral'),
  async execute(ctx) {
    const id = ctx.interaction.options.getString('activity', true).trim();
    // Free text typed without picking from the list is no id Eventor could know.
    if (!ID.test(id)) throw new UserFacingError('members.error.unknownActivity');
    const eventor = await ctx.guild.eventor();
    let found: Activity;
    try {
      found = await eventor.client.activity({ organisationId: eventor.organisationId, id, includeRegistrations: true });
    } catch (error) {
      // The router would call it an event; here it is an activity.
      if (error instanceof EventorError && error.code === 'NotFound')
        throw new UserFacingError('members.error.unknownActivity');
      throw error;
    }
    await showPage(ctx.answer, renderActivity(found, renderContext(ctx, eventor)));
  },
  async autocomplete(ctx) {
    const eventor = await ctx.guild.eventor();
    return activityChoices(eventor.client, eventor.organisationId, ctx.interaction.options.getFocused(), ctx.now());
  },
};
