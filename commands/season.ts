/**
 * /season member [member] [year] [share], /season club [year] [share], /season cup <cup> [share]:
 * a member's year (you by default), the club's table, a club cup's standings, from Eventor's
 * results of the club's own runners (docs/members.md#season-your-year-and-the-clubs-table). Private
 * unless shared. The season's races are kept once asked (src/club/season.ts), so asking again costs
 * Eventor nothing.
 */
import {
  ApplicationIntegrationType,
  InteractionContextType,
  type SlashCommandBooleanOption,
  type SlashCommandIntegerOption,
} from 'discord.js';
import type { SeasonGuild } from '../src/club/season.js';
import { type BotCommand, type CommandContext, type GuildEventor, UserFacingError } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { guildOf } from '../src/bot/guards.js';
import { cupChoices, memberChoices } from '../src/bot/lookup.js';
import { namedClubMember, ownPersonId } from '../src/bot/options.js';
import { renderContext, showPage } from '../src/bot/render-context.js';
import { drawPicture, type SeasonPictureRequest } from '../src/charts/index.js';
import {
  clubSeasonPicture,
  memberSeasonPicture,
  renderClubSeason,
  renderCupStandings,
  renderMemberSeason,
} from '../src/render/index.js';
import { localToday } from '../src/time/days.js';

/** The first year `/season` offers: before it, Eventor has little for anyone. */
export const FIRST_SEASON_YEAR = 2000;

const yearOption = (o: SlashCommandIntegerOption) =>
  localize(o, 'season.option.year.name', 'season.option.year.description')
    .setMinValue(FIRST_SEASON_YEAR)
    .setMaxValue(2100);
const shareOption = (o: SlashCommandBooleanOption) =>
  localize(o, 'members.option.share.name', 'members.option.share.description');

const definition = localizedCommand('season.name', 'season.description')
  // The season is the server's club's and is kept per server.
  .setContexts(InteractionContextType.Guild)
  .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
  .addSubcommand((sub) =>
    localize(sub, 'season.member.name', 'season.member.description')
      .addStringOption((o) =>
        localize(o, 'members.option.member.name', 'season.option.member.description')
          .setAutocomplete(true)
          .setMaxLength(100),
      )
      .addIntegerOption(yearOption)
      .addBooleanOption(shareOption),
  )
  .addSubcommand((sub) =>
    localize(sub, 'season.club.name', 'season.club.description')
      .addIntegerOption(yearOption)
      .addBooleanOption(shareOption),
  )
  .addSubcommand((sub) =>
    localize(sub, 'season.cup.name', 'season.cup.description')
      .addStringOption((o) =>
        localize(o, 'season.option.cup.name', 'season.option.cup.description')
          .setRequired(true)
          .setAutocomplete(true)
          .setMaxLength(100),
      )
      .addBooleanOption(shareOption),
  )
  .toJSON();

/** The year asked for (this year in the server's zone by default); one still to come, or before the first, is refused. */
function yearOf(ctx: CommandContext): number {
  const current = Number(localToday(ctx.now(), ctx.guild.timeZone).slice(0, 4));
  const year = ctx.interaction.options.getInteger('year') ?? current;
  if (year < FIRST_SEASON_YEAR || year > current)
    throw new UserFacingError('season.error.year', { first: FIRST_SEASON_YEAR, last: current });
  return year;
}

function seasonGuild(ctx: CommandContext): SeasonGuild {
  return { id: guildOf(ctx), timeZone: ctx.guild.timeZone };
}

/** A picture that cannot be drawn leaves the words, which say the same; the log keeps why. */
async function drawn(ctx: CommandContext, request: SeasonPictureRequest | null) {
  if (request === null) return null;
  try {
    return await drawPicture(request);
  } catch (error) {
    ctx.log.error('a /season picture could not be drawn; answering without it', { kind: request.kind, error });
    return null;
  }
}

/** Whose year: the club member the option names, else the caller's own linked person (checked before Eventor is asked). */
async function whose(ctx: CommandContext): Promise<{ eventor: GuildEventor; personId: string }> {
  const value = ctx.interaction.options.getString('member');
  const own = value === null ? await ownPersonId(ctx, ctx.interaction.user.id) : null;
  const eventor = await ctx.guild.eventor();
  return { eventor, personId: own ?? (await namedClubMember(ctx, eventor, value!)) };
}

async function memberYear(ctx: CommandContext): Promise<void> {
  const guild = seasonGuild(ctx);
  const year = yearOf(ctx);
  const { eventor, personId } = await whose(ctx);
  const [{ season, unavailable }, listed] = await Promise.all([
    ctx.services.season.memberSeason(eventor, guild, personId, year, ctx.log),
    ctx.services.club.memberName(eventor, personId),
  ]);
  // The club's list names a member; a former one is named as their results spell it.
  const name = listed ?? season.races[0]?.runner.name ?? `#${personId}`;
  const answer = { name, year, season, unavailable };
  const picture = await drawn(ctx, memberSeasonPicture(answer, ctx.language));
  await showPage(ctx.answer, renderMemberSeason(answer, picture, renderContext(ctx, eventor)));
}

async function clubYear(ctx: CommandContext): Promise<void> {
  const guild = seasonGuild(ctx);
  const year = yearOf(ctx);
  const eventor = await ctx.guild.eventor();
  const { season, unavailable } = await ctx.services.season.clubSeason(eventor, guild, year, ctx.log);
  const answer = { club: eventor.organisationName, year, season, unavailable };
  const picture = await drawn(ctx, clubSeasonPicture(answer, ctx.language));
  await showPage(ctx.answer, renderClubSeason(answer, picture, renderContext(ctx, eventor)));
}

async function cupStandings(ctx: CommandContext): Promise<void> {
  const guild = seasonGuild(ctx);
  const cup = await ctx.services.cups.find(guild.id, ctx.interaction.options.getString('cup', true));
  const eventor = await ctx.guild.eventor();
  const result = await ctx.services.season.cupStandings(eventor, guild, cup.rules, ctx.log);
  await showPage(ctx.answer, renderCupStandings(cup, result, renderContext(ctx, eventor)));
}

export const seasonCommand: BotCommand = {
  definition,
  defer: (interaction) => (interaction.options.getBoolean('share') === true ? 'public' : 'ephemeral'),
  subcommands: { member: memberYear, club: clubYear, cup: cupStandings },
  async autocomplete(ctx) {
    const focused = ctx.interaction.options.getFocused(true);
    if (focused.name === 'member') {
      const eventor = await ctx.guild.eventor();
      return memberChoices(eventor.client, eventor.organisationId, focused.value);
    }
    if (focused.name === 'cup')
      return ctx.guild.id ? cupChoices(await ctx.services.cups.list(ctx.guild.id), focused.value) : [];
    return [];
  },
};
