/**
 * /cup create|edit|delete|show (Manage Server, declared for the router to check): the club cups
 * (docs/admins.md#cups). A cup is a name, a scoring, which races count (levels, disciplines, a date
 * range, chosen events) and classes, and a runner's best N races. Every answer is private; a bad
 * value changes nothing; deleting asks first. Members see a cup's standings with `/season cup`.
 */
import {
  ButtonStyle,
  ComponentType,
  messageLink,
  type SlashCommandStringOption,
  type SlashCommandSubcommandBuilder,
} from 'discord.js';
import { z } from 'zod';
import type { CupInput } from '../src/app/cups.js';
import type { Cup } from '../src/club/season.js';
import {
  type BotCommand,
  type CommandContext,
  customIdCodec,
  onComponent,
  UserFacingError,
} from '../src/bot/command.js';
import { localize, localizedChoice, serverAdminCommand } from '../src/bot/define.js';
import { settingsServer } from '../src/bot/guards.js';
import { cupChoices } from '../src/bot/lookup.js';
import { renderContext, showPage } from '../src/bot/render-context.js';
import { CUP_STANDINGS_FEED } from '../src/feeds/kinds/cup-standings/items.js';
import { cupRulesLines, escapeName, fitPayload, renderCupList, renderCupStandings } from '../src/render/index.js';
import { MAX_BEST, MAX_CUP_NAME } from '../src/season/cup.js';
import { SCORINGS } from '../src/season/scoring.js';

/** The confirm and keep buttons of `/cup delete`: which cup, and whether to delete it. */
export const cupDeleteId = customIdCodec(
  'cup:delete',
  z.object({ cup: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), confirm: z.boolean() }),
);

/** The options a cup is made of; `create` requires a name and a scoring, `edit` takes any. */
function ruleOptions(sub: SlashCommandSubcommandBuilder, create: boolean): SlashCommandSubcommandBuilder {
  return sub
    .addStringOption((o) =>
      localize(o, 'cup.option.scoring.name', 'cup.option.scoring.description')
        .setRequired(create)
        .addChoices(...SCORINGS.map((s) => localizedChoice(`cup.choice.${s}`, s))),
    )
    .addIntegerOption((o) =>
      localize(o, 'cup.option.best.name', 'cup.option.best.description').setMinValue(0).setMaxValue(MAX_BEST),
    )
    .addStringOption((o) => localize(o, 'cup.option.levels.name', 'cup.option.levels.description').setMaxLength(200))
    .addStringOption((o) =>
      localize(o, 'cup.option.disciplines.name', 'cup.option.disciplines.description').setMaxLength(100),
    )
    .addStringOption((o) => localize(o, 'cup.option.from.name', 'cup.option.from.description').setMaxLength(20))
    .addStringOption((o) => localize(o, 'cup.option.to.name', 'cup.option.to.description').setMaxLength(20))
    .addStringOption((o) => localize(o, 'cup.option.events.name', 'cup.option.events.description').setMaxLength(1000))
    .addStringOption((o) => localize(o, 'cup.option.classes.name', 'cup.option.classes.description').setMaxLength(1000))
    .addBooleanOption((o) => localize(o, 'cup.option.post.name', 'cup.option.post.description'));
}

const cupOption = (required: boolean) => (o: SlashCommandStringOption) =>
  localize(o, 'season.option.cup.name', 'cup.option.cup.description')
    .setRequired(required)
    .setAutocomplete(true)
    .setMaxLength(100);

const definition = serverAdminCommand('cup.name', 'cup.description')
  .addSubcommand((sub) =>
    ruleOptions(
      localize(sub, 'cup.create.name', 'cup.create.description').addStringOption((o) =>
        localize(o, 'cup.option.name.name', 'cup.option.name.description').setRequired(true).setMaxLength(MAX_CUP_NAME),
      ),
      true,
    ),
  )
  .addSubcommand((sub) =>
    ruleOptions(
      localize(sub, 'cup.edit.name', 'cup.edit.description')
        .addStringOption(cupOption(true))
        .addStringOption((o) =>
          localize(o, 'cup.option.name.name', 'cup.option.newName.description').setMaxLength(MAX_CUP_NAME),
        ),
      false,
    ),
  )
  .addSubcommand((sub) => localize(sub, 'cup.delete.name', 'cup.delete.description').addStringOption(cupOption(true)))
  .addSubcommand((sub) => localize(sub, 'cup.show.name', 'cup.show.description').addStringOption(cupOption(false)))
  .toJSON();

/** What the options give: only the ones given (an edit changes nothing else). */
function inputOf(ctx: CommandContext): CupInput {
  const o = ctx.interaction.options;
  const input: CupInput = {};
  const text = (name: string) => o.getString(name) ?? undefined;
  const fields: Array<[keyof CupInput, string]> = [
    ['name', 'name'],
    ['scoring', 'scoring'],
    ['levels', 'levels'],
    ['disciplines', 'disciplines'],
    ['from', 'from'],
    ['to', 'to'],
    ['events', 'events'],
    ['classes', 'classes'],
  ];
  for (const [key, option] of fields) {
    const value = text(option);
    if (value !== undefined) (input as Record<string, unknown>)[key] = value;
  }
  const best = o.getInteger('best');
  if (best !== null) input.best = best;
  const post = o.getBoolean('post');
  if (post !== null) input.post = post;
  return input;
}

/**
 * Whether and where its standings are posted (docs/admins.md#cup-standings-posts): said when they
 * are, and when an edit just stopped them; a cup that was never posted says nothing of it.
 */
async function postLine(ctx: CommandContext, guildId: string, cup: Cup, input: CupInput): Promise<string | null> {
  if (!cup.postStandings) return input.post === false ? ctx.t('cup.post.off') : null;
  const kind = await ctx.services.feedsAdmin.get(guildId, CUP_STANDINGS_FEED);
  return kind.enabled && kind.channelId !== null
    ? ctx.t('cup.post.on', { channel: `<#${kind.channelId}>` })
    : ctx.t('cup.post.waiting');
}

/** The cup and its rules, as a create or an edit leaves it, and whether its standings are posted. */
async function savedText(
  ctx: CommandContext,
  key: 'cup.created' | 'cup.edited',
  guildId: string,
  cup: Cup,
  input: CupInput,
): Promise<string> {
  const post = await postLine(ctx, guildId, cup, input);
  return [
    ctx.t(key, { name: escapeName(cup.name) }),
    ...(post === null ? [] : [post]),
    '',
    ...cupRulesLines(cup.rules, ctx.language).map((l) => `· ${l}`),
  ].join('\n');
}

async function create(ctx: CommandContext): Promise<void> {
  const guildId = settingsServer(ctx);
  const input = inputOf(ctx);
  const cup = await ctx.services.cups.create(guildId, ctx.interaction.user.id, input, ctx.guild.timeZone);
  const content = await savedText(ctx, 'cup.created', guildId, cup, input);
  await ctx.answer({ content, allowedMentions: { parse: [] } });
}

async function edit(ctx: CommandContext): Promise<void> {
  const guildId = settingsServer(ctx);
  const cup = await ctx.services.cups.find(guildId, ctx.interaction.options.getString('cup', true));
  const input = inputOf(ctx);
  const edited = await ctx.services.cups.edit(guildId, ctx.interaction.user.id, cup, input);
  const content = await savedText(ctx, 'cup.edited', guildId, edited, input);
  await ctx.answer({ content, allowedMentions: { parse: [] } });
}

async function remove(ctx: CommandContext): Promise<void> {
  const guildId = settingsServer(ctx);
  const cup = await ctx.services.cups.find(guildId, ctx.interaction.options.getString('cup', true));
  await ctx.answer({
    content: ctx.t('cup.delete.ask', { name: escapeName(cup.name) }),
    components: [
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Danger,
            label: ctx.t('cup.delete.confirm'),
            custom_id: cupDeleteId.encode({ cup: cup.id, confirm: true }),
          },
          {
            type: ComponentType.Button,
            style: ButtonStyle.Secondary,
            label: ctx.t('cup.delete.keep'),
            custom_id: cupDeleteId.encode({ cup: cup.id, confirm: false }),
          },
        ],
      },
    ],
    allowedMentions: { parse: [] },
  });
}

async function show(ctx: CommandContext): Promise<void> {
  const guildId = settingsServer(ctx);
  const named = ctx.interaction.options.getString('cup');
  if (named === null) {
    const cups = await ctx.services.cups.list(guildId);
    const eventor = await ctx.guild.eventor().catch(() => null);
    const render = eventor
      ? renderContext(ctx, eventor)
      : { language: ctx.language, timeZone: ctx.guild.timeZone, now: ctx.now(), webUrl: '' };
    await showPage(ctx.answer, renderCupList(cups, render));
    return;
  }
  const cup = await ctx.services.cups.find(guildId, named);
  const eventor = await ctx.guild.eventor();
  const result = await ctx.services.season.cupStandings(
    eventor,
    { id: guildId, timeZone: ctx.guild.timeZone },
    cup.rules,
    ctx.log,
  );
  await showPage(ctx.answer, renderCupStandings(cup, result, renderContext(ctx, eventor)));
}

export const cupCommand: BotCommand = {
  definition,
  defer: 'ephemeral',
  requires: { permission: 'manageGuild' },
  subcommands: {
    create: { callsEventor: false, execute: create },
    edit: { callsEventor: false, execute: edit },
    delete: { callsEventor: false, execute: remove },
    show: { execute: show },
  },
  async autocomplete(ctx) {
    const focused = ctx.interaction.options.getFocused(true);
    if (focused.name !== 'cup' || !ctx.guild.id) return [];
    return cupChoices(await ctx.services.cups.list(ctx.guild.id), focused.value);
  },
  components: [
    onComponent(cupDeleteId, {
      defer: 'update',
      callsEventor: false,
      // Anyone can send any custom id: deleting is for those who manage the server, checked by the router.
      requires: { permission: 'manageGuild' },
      async handle(ctx, { cup: id, confirm }) {
        if (!ctx.interaction.inGuild()) throw new UserFacingError('setup.guildOnly');
        const guildId = ctx.interaction.guildId;
        if (!confirm) {
          await ctx.answer({ content: ctx.t('cup.kept'), components: [] });
          return;
        }
        // The id is the member's to send: only a cup of this server is found, and only once.
        const cup = await ctx.services.cups.byId(guildId, id);
        if (cup === null || !(await ctx.services.cups.delete(guildId, ctx.interaction.user.id, cup))) {
          await ctx.answer({ content: ctx.t('cup.error.gone'), components: [] });
          return;
        }
        // Its standings post, if it has one, stays as it last was (docs/admins.md#cup-standings-posts).
        const post = await ctx.services.cups.standingsPost(guildId, cup.id);
        const name = escapeName(cup.name);
        const content = post
          ? ctx.t('cup.deletedPost', { name, link: messageLink(post.channelId, post.messageId, guildId) })
          : ctx.t('cup.deleted', { name });
        await ctx.answer({ ...fitPayload({ content }), components: [] });
      },
    }),
  ],
};
