/**
 * /splits <event> [class] [member] [share]: where did I lose time? The split-time graph of a class
 * with the member (you by default, else the club's runners) drawn strong, the member's time lost per
 * leg, and the analysis in words (docs/members.md#splits-where-you-lost-time). Private unless
 * shared, like /results.
 */
import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { eventSplits } from '../src/app/splits.js';
import type { BaseContext, BotCommand, CommandContext } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { eventChoices, memberChoices } from '../src/bot/lookup.js';
import { namedClubMember, resolveEventId } from '../src/bot/options.js';
import { renderContext, showPage } from '../src/bot/render-context.js';
import { canDrawBars, canDrawGraph, drawPicture, type PictureRequest } from '../src/charts/index.js';
import { fold } from '../src/text/fold.js';
import type { GuildEventor } from '../src/club/eventor-access.js';
import { plainText, renderSplitsAnswer, splitsPictureTitle } from '../src/render/index.js';

const ID = /^\d{1,18}$/;

const definition = localizedCommand('splits.name', 'splits.description')
  .addStringOption((o) =>
    localize(o, 'members.option.event.name', 'splits.option.event.description')
      .setRequired(true)
      .setAutocomplete(true)
      .setMaxLength(100),
  )
  .addStringOption((o) =>
    localize(o, 'splits.option.class.name', 'splits.option.class.description').setAutocomplete(true).setMaxLength(100),
  )
  .addStringOption((o) =>
    localize(o, 'members.option.member.name', 'splits.option.member.description')
      .setAutocomplete(true)
      .setMaxLength(100),
  )
  .addBooleanOption((o) => localize(o, 'members.option.share.name', 'members.option.share.description'))
  .toJSON();

/**
 * Whose result to show: the club member the option names (an id picked from autocomplete or a
 * name typed), else the caller's own links in this server (none: the club's runners). A named
 * member is found by their Eventor person alone, never through anyone's link, so the answer does
 * not tell who is linked to whom (docs/members.md#splits-where-you-lost-time).
 */
async function whom(ctx: CommandContext, eventor: GuildEventor): Promise<{ personIds: string[]; named: boolean }> {
  const value = ctx.interaction.options.getString('member');
  if (value === null) {
    const guildId = ctx.guild.id;
    const own = guildId === null ? [] : await ctx.services.linking.linkedPersons(guildId, ctx.interaction.user.id);
    return { personIds: own.map((l) => l.personId), named: false };
  }
  return { personIds: [await namedClubMember(ctx, eventor, value)], named: true };
}

async function execute(ctx: CommandContext): Promise<void> {
  const options = ctx.interaction.options;
  const eventor = await ctx.guild.eventor();
  const { personIds, named } = await whom(ctx, eventor);
  const eventId = await resolveEventId(ctx, eventor, options.getString('event', true));
  const className = options.getString('class')?.trim() || null;
  const view = await eventSplits(eventor, { eventId, className, personIds, named });
  const render = renderContext(ctx, eventor);
  const title = splitsPictureTitle(view, ctx.language);
  // A picture that cannot be drawn leaves the words, which say the same; the log keeps why.
  const draw = (request: PictureRequest) =>
    drawPicture(request).catch((error: unknown) => {
      ctx.log.error('a /splits picture could not be drawn; answering without it', { kind: request.kind, error });
      return null;
    });
  // The pictures clean every name and code they show themselves (src/charts/text.ts).
  const course = view.course;
  // One rule for whether there is a picture (src/charts/request.ts), as in the results thread and DM.
  const [graph, bars] = await Promise.all([
    canDrawGraph(course)
      ? draw({ kind: 'graph', course, title, highlight: view.highlight, language: ctx.language })
      : null,
    // The bars in the member's colour in the graph above: one colour per runner in the message.
    view.focus !== null && canDrawBars(course, view.focus)
      ? draw({
          kind: 'bars',
          course,
          title,
          runner: view.focus,
          colour: Math.max(0, view.highlight.indexOf(view.focus)),
          language: ctx.language,
        })
      : null,
  ]);
  await showPage(ctx.answer, renderSplitsAnswer(view, { graph, bars }, render));
}

/** The event's classes by name, as the result list names them (what the `class` option matches). */
async function classNameChoices(ctx: BaseContext, eventValue: string, query: string) {
  const eventId = eventValue.trim();
  if (!ID.test(eventId)) return [];
  const eventor = await ctx.guild.eventor();
  const classes = await eventor.client.eventClasses({ eventId });
  const words = fold(query).split(/\s+/).filter(Boolean);
  const names = [...new Set(classes.map((c) => c.name))];
  return names
    .filter((name) => words.every((w) => fold(name).includes(w)))
    .slice(0, 25)
    .map((name): ApplicationCommandOptionChoiceData<string> => {
      // A name of only control characters has nothing to show: a choice's name may not be empty.
      return { name: plainText(name, 100) || '?', value: name.slice(0, 100) };
    });
}

export const splitsCommand: BotCommand = {
  definition,
  defer: (interaction) => (interaction.options.getBoolean('share') === true ? 'public' : 'ephemeral'),
  execute,
  async autocomplete(ctx) {
    const focused = ctx.interaction.options.getFocused(true);
    if (focused.name === 'event') {
      const eventor = await ctx.guild.eventor();
      // Only events that have begun can have results to analyse.
      return eventChoices(eventor.client, focused.value, ctx.now(), ctx.guild.timeZone, { started: true });
    }
    if (focused.name === 'member') {
      const eventor = await ctx.guild.eventor();
      return memberChoices(eventor.client, eventor.organisationId, focused.value);
    }
    if (focused.name === 'class')
      return classNameChoices(ctx, ctx.interaction.options.getString('event') ?? '', focused.value);
    return [];
  },
};
