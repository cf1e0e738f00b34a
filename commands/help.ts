import { EmbedBuilder, MessageFlags } from 'discord.js';
import type { BotCommand } from '../src/bot/command.js';
import { localizedCommand } from '../src/bot/define.js';
import { t } from '../src/i18n/index.js';

export const help: BotCommand = {
  definition: localizedCommand('help.name', 'help.description').toJSON(),
  defer: 'none',
  callsEventor: false,
  async execute(ctx) {
    // The router hands over the commands it serves: importing their list here would be a cycle.
    const lines = ctx.commands.map((command) => {
      const name = command.definition.name_localizations?.[ctx.interaction.locale] ?? command.definition.name;
      const description =
        command.definition.description_localizations?.[ctx.interaction.locale] ?? command.definition.description;
      return `**/${name}**: ${description}`;
    });
    const embed = new EmbedBuilder()
      .setTitle(ctx.t('help.title'))
      .setDescription(`${ctx.t('help.intro')}\n\n${lines.join('\n')}`)
      .setFooter({ text: t(ctx.language, 'help.footer') });
    await ctx.interaction.reply({ embeds: [embed], flags: MessageFlags.Ephemeral });
  },
};
