/**
 * /live show [event] and /live link event competition (docs/live-results.md#race-day-in-discord):
 * a member sees the club's runners of today's races as the boards show them now, privately; an
 * admin sets which LiveResultat competition a race is, by its id or its address (only the id is
 * taken; LiveResultat is asked on the operator's addresses), or takes one the bot offered with a
 * button. The button's custom id is the member's to send: only a competition the offer named for
 * that race of today is taken, by someone who manages the server (the router checks).
 */
import { ApplicationIntegrationType, InteractionContextType } from 'discord.js';
import { z } from 'zod';
import { type BotCommand, type CommandContext, customIdCodec, idField, onComponent } from '../src/bot/command.js';
import { localize, localizedCommand } from '../src/bot/define.js';
import { guildOf, settingsServer } from '../src/bot/guards.js';
import { showPage } from '../src/bot/render-context.js';
import { matchWords } from '../src/feeds/kinds/live/matching.js';
import { escapeName, LIVE_PICK_ID, plainText, renderLiveAnswer } from '../src/render/index.js';

/** The offer's buttons (src/render/live.ts writes them in this wire form): the race and the competition taken. */
export const livePickId = customIdCodec(
  LIVE_PICK_ID,
  z.object({ eventId: idField(), raceId: idField(), competitionId: z.number().int().min(1).max(2_147_483_647) }),
);

/** The most races the autocomplete offers: a club rarely has more than a few on one day. */
const CHOICES_MAX = 25;

const definition = localizedCommand('live.name', 'live.description')
  .setContexts(InteractionContextType.Guild)
  .setIntegrationTypes(ApplicationIntegrationType.GuildInstall)
  .addSubcommand((sub) =>
    localize(sub, 'live.show.name', 'live.show.description').addStringOption((o) =>
      localize(o, 'live.opt.event.name', 'live.opt.event.description').setAutocomplete(true).setMaxLength(50),
    ),
  )
  .addSubcommand((sub) =>
    localize(sub, 'live.link.name', 'live.link.description')
      .addStringOption((o) =>
        localize(o, 'live.opt.event.name', 'live.opt.linkEvent.description')
          .setRequired(true)
          .setAutocomplete(true)
          .setMaxLength(50),
      )
      .addStringOption((o) =>
        localize(o, 'live.opt.competition.name', 'live.opt.competition.description')
          .setRequired(true)
          .setMaxLength(300),
      ),
  )
  .toJSON();

async function show(ctx: CommandContext): Promise<void> {
  const guildId = guildOf(ctx);
  const event = ctx.interaction.options.getString('event')?.trim() || null;
  const boards = await ctx.services.live.boards(guildId, ctx.guild.timeZone, event);
  if (boards.kind === 'unconfigured') return ctx.answer(ctx.t('live.show.unconfigured'));
  if (boards.kind === 'off') return ctx.answer(ctx.t('live.show.off'));
  const races = boards.races.map((race) => {
    const words = { race: escapeName(race.title), how: matchWords(ctx, race.row) };
    return {
      line: ctx.t(race.row.competitionId === null ? 'live.show.notFollowed' : 'live.show.waiting', words),
      board: race.board,
    };
  });
  const render = { language: ctx.language, timeZone: ctx.guild.timeZone, now: ctx.now(), webUrl: '' };
  await showPage(ctx.answer, renderLiveAnswer(races, ctx.t('live.show.none'), render));
}

async function link(ctx: CommandContext): Promise<void> {
  const guildId = settingsServer(ctx);
  const choice = await ctx.services.live.choose({
    guildId,
    timeZone: ctx.guild.timeZone,
    event: ctx.interaction.options.getString('event', true),
    competition: ctx.interaction.options.getString('competition', true),
    eventor: async () => {
      const eventor = await ctx.guild.eventor();
      return { client: eventor.client, organisationId: eventor.organisationId };
    },
  });
  const words = {
    race: escapeName(choice.title),
    id: choice.competition.id,
    name: escapeName(choice.competition.name),
  };
  const lines = [
    choice.on && choice.channelId !== null
      ? ctx.t('live.link.done', { ...words, channel: `<#${choice.channelId}>` })
      : ctx.t('live.link.doneOff', words),
  ];
  if (choice.unlike) lines.push(ctx.t('live.link.unlike'));
  await ctx.answer({ content: lines.join('\n'), allowedMentions: { parse: [] } });
}

export const liveCommand: BotCommand = {
  definition,
  defer: 'ephemeral',
  subcommands: {
    show: { callsEventor: false, execute: show },
    link: { requires: { permission: 'manageGuild' }, execute: link },
  },
  async autocomplete(ctx) {
    if (!ctx.guild.id) return [];
    const typed = String(ctx.interaction.options.getFocused()).toLowerCase();
    return (await ctx.services.live.today(ctx.guild.id, ctx.guild.timeZone))
      .filter(({ title }) => title.toLowerCase().includes(typed))
      .slice(0, CHOICES_MAX)
      .map(({ row, title }) => ({
        // Shown without markdown: cleaned, within Discord's 100 characters.
        name: plainText(title, 100) || row.eventId,
        value: `${row.eventId}:${row.raceId}`,
      }));
  },
  components: [
    onComponent(livePickId, {
      defer: 'update',
      callsEventor: false,
      // Anyone can send any custom id: taking a competition is for those who manage the server.
      requires: { permission: 'manageGuild' },
      async handle(ctx, { eventId, raceId, competitionId }) {
        if (!ctx.interaction.inGuild()) return ctx.answer({ content: ctx.t('setup.guildOnly'), components: [] });
        const guildId = ctx.interaction.guildId;
        const taken = await ctx.services.live.pick(guildId, ctx.guild.timeZone, { eventId, raceId, competitionId });
        if (taken === null)
          return ctx.answer({
            content: ctx.t('live.pick.gone'),
            embeds: [],
            components: [],
            allowedMentions: { parse: [] },
          });
        await ctx.answer({
          content: ctx.t('live.offer.chosen', {
            race: escapeName(taken.title),
            id: taken.competition.id,
            name: escapeName(taken.competition.name),
            admin: `<@${ctx.interaction.user.id}>`,
          }),
          embeds: [],
          components: [],
          allowedMentions: { parse: [] },
        });
      },
    }),
  ],
};
