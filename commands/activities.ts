/**
 * /activities [from] [to]: the club's activities in a period (today to 60 days ahead by default)
 * with registration counts and deadlines.
 */
import type { ChatInputCommandInteraction } from 'discord.js';
import { z } from 'zod';
import {
  type BaseContext,
  type BotCommand,
  customIdCodec,
  type DeferMode,
  type GuildEventor,
  onComponent,
  pageField,
  UserFacingError,
} from '../src/bot/command.js';
import { requireDay } from '../src/bot/day-options.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { renderContext, showPage } from '../src/bot/render-context.js';
import { type MessagePayload, renderActivities } from '../src/render/index.js';
import { pageWithButtons } from '../src/render/paging.js';
import { addDays, localToday } from '../src/time/days.js';

const DEFAULT_DAYS = 60;

const DAY = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
/** A page button: the period (`YYYY-MM-DD`, checked again as a day on the way back) and the page. */
export const activitiesPageId = customIdCodec('activities:page', z.object({ from: DAY, to: DAY, page: pageField() }));

function pageId(from: string, to: string, page: number): string {
  return activitiesPageId.encode({ from, to, page });
}

async function pages(ctx: BaseContext, eventor: GuildEventor, from: string, to: string): Promise<MessagePayload[]> {
  const activities = await eventor.client.activities({
    organisationId: eventor.organisationId,
    from,
    to,
    includeRegistrations: true,
  });
  const when = (a: { startTime: string | null }) => (a.startTime ? Date.parse(a.startTime) : Number.MAX_SAFE_INTEGER);
  const periodHasPastDays = from < localToday(ctx.now(), ctx.guild.timeZone);
  return renderActivities(
    [...activities].sort((a, b) => when(a) - when(b)),
    renderContext(ctx, eventor),
    { periodHasPastDays },
  );
}

function readable(value: string | null): boolean {
  try {
    if (value !== null) requireDay(value);
    return true;
  } catch {
    return false;
  }
}

/** A typo in a date is the member's own business: its error is only shown to them. */
function visibility(interaction: ChatInputCommandInteraction): DeferMode {
  const from = interaction.options.getString('from');
  const to = interaction.options.getString('to');
  if (!readable(from) || !readable(to)) return 'ephemeral';
  return from !== null && to !== null && from.trim() > to.trim() ? 'ephemeral' : 'public';
}

export const activities: BotCommand = {
  definition: localizedCommand('members.activities.name', 'members.activities.description')
    .addStringOption((o) => localize(o, 'members.option.from.name', 'members.option.from.description').setMaxLength(10))
    .addStringOption((o) => localize(o, 'members.option.to.name', 'members.option.to.description').setMaxLength(10))
    .toJSON(),
  defer: visibility,
  async execute(ctx) {
    const fromText = ctx.interaction.options.getString('from');
    const toText = ctx.interaction.options.getString('to');
    const from = fromText === null ? localToday(ctx.now(), ctx.guild.timeZone) : requireDay(fromText);
    const to = toText === null ? addDays(from, DEFAULT_DAYS) : requireDay(toText);
    if (from > to) throw new UserFacingError('error.datesReversed', { from, to });
    const eventor = await ctx.guild.eventor();
    await showPage(
      ctx.answer,
      pageWithButtons(await pages(ctx, eventor, from, to), 1, ctx.language, (n) => pageId(from, to, n)),
    );
  },
  components: [
    onComponent(activitiesPageId, {
      defer: 'update',
      async handle(ctx, { from: fromArg, to: toArg, page }) {
        const from = requireDay(fromArg);
        const to = requireDay(toArg);
        const eventor = await ctx.guild.eventor();
        await showPage(
          ctx.answer,
          pageWithButtons(await pages(ctx, eventor, from, to), page, ctx.language, (n) => pageId(from, to, n)),
        );
      },
    }),
  ],
};
