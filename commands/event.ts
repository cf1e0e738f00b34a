/**
 * /event <event>: one event's card (dates, races, deadlines, classes, fees, documents, the
 * club's entries, the map), for an event picked from autocomplete or typed by id.
 */
import type { SlashCommandStringOption } from 'discord.js';
import type { BotCommand } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { eventCard } from '../src/bot/event-card.js';
import { eventChoices } from '../src/bot/lookup.js';
import { resolveEventId } from '../src/bot/options.js';

const definition = localizedCommand('event.name', 'event.description').addStringOption((o: SlashCommandStringOption) =>
  localize(o, 'event.option.event', 'event.option.eventDescription')
    .setRequired(true)
    .setAutocomplete(true)
    .setMaxLength(100),
);

export const eventCommand: BotCommand = {
  definition: definition.toJSON(),
  defer: 'public',
  async execute(ctx) {
    const eventor = await ctx.guild.eventor();
    const eventId = await resolveEventId(ctx, eventor, ctx.interaction.options.getString('event', true));
    await ctx.answer(await eventCard(ctx, eventor, eventId));
  },
  async autocomplete(ctx) {
    const eventor = await ctx.guild.eventor();
    return eventChoices(eventor.client, String(ctx.interaction.options.getFocused()), ctx.now(), ctx.guild.timeZone);
  },
};
