import { EmbedBuilder, type GuildBasedChannel, PermissionFlagsBits, TimestampStyles, time } from 'discord.js';
import { type BotCommand, type CommandContext, UserFacingError } from '../src/bot/command.js';
import { localizedCommand } from '../src/bot/define.js';
import { EventorError } from '../src/eventor/errors.js';
import { escapeName } from '../src/render/index.js';

async function eventorLine(ctx: CommandContext): Promise<{ text: string; lastAnswer: Date | null }> {
  try {
    const eventor = await ctx.guild.eventor();
    // organisation/apiKey is the key check Eventor documents; the server's client caches it for 5 minutes, and drops it the moment Eventor refuses the key.
    const organisation = await eventor.client.organisationForApiKey();
    const own = ctx.guild.id ? (await ctx.services.setup.settings(ctx.guild.id))?.hasApiKey === true : false;
    const text = `${ctx.t('status.keyOk', { club: escapeName(organisation.name), instance: eventor.instance.label })}${own ? '' : `\n${ctx.t('status.keyDefault')}`}`;
    return { text, lastAnswer: eventor.lastAnswer() };
  } catch (error) {
    if (error instanceof UserFacingError && error.key === 'error.notConfigured')
      return { text: ctx.t('status.notConfigured'), lastAnswer: null };
    if (error instanceof EventorError && error.code === 'InvalidApiKey')
      return { text: ctx.t('status.keyRefused'), lastAnswer: null };
    if (error instanceof EventorError && error.transient)
      return { text: ctx.t('status.eventorDown'), lastAnswer: null };
    throw error;
  }
}

function channelLine(ctx: CommandContext, kind: string, channelId: string): string {
  const channel: GuildBasedChannel | undefined = ctx.interaction.guild?.channels.cache.get(channelId);
  const me = ctx.interaction.guild?.members.me;
  let state: string;
  if (!channel) state = ctx.t('status.channelMissing');
  else if (me && !channel.permissionsFor(me).has([PermissionFlagsBits.ViewChannel, PermissionFlagsBits.SendMessages]))
    state = ctx.t('status.channelNoAccess');
  else state = ctx.t('status.channelOk');
  return `${kind}: <#${channelId}> (${state})`;
}

export const status: BotCommand = {
  definition: localizedCommand('status.name', 'status.description').toJSON(),
  defer: 'ephemeral',
  async execute(ctx) {
    const { text, lastAnswer } = await eventorLine(ctx);
    const channels = ctx.guild.id
      ? Object.entries((await ctx.services.setup.settings(ctx.guild.id))?.channels ?? {})
      : [];
    const embed = new EmbedBuilder()
      .setTitle(ctx.t('status.title'))
      .setDescription(text)
      .addFields(
        {
          name: ctx.t('status.lastAnswer'),
          value: lastAnswer ? time(lastAnswer, TimestampStyles.RelativeTime) : ctx.t('status.never'),
        },
        {
          name: ctx.t('status.channels'),
          value:
            channels.length === 0
              ? ctx.t('status.noChannels')
              : channels.map(([kind, id]) => channelLine(ctx, kind, id)).join('\n'),
        },
      );
    await ctx.answer({ embeds: [embed] });
  },
};
