import { ComponentType } from 'discord.js';
import type { LoopbackWorld } from '../../harness/loopback/world.js';

/**
 * Posts a message in the world's channel carrying one button with `customId`, as anyone could
 * forge it (a custom id is text the clicker's client sends back): what the attack tests click.
 * The message id.
 */
export async function postForgedButton(world: LoopbackWorld, customId: string): Promise<string> {
  const channel = await world.bot.client.channels.fetch(world.channel.id);
  if (!channel?.isSendable()) throw new Error('channel not sendable');
  const button = { type: ComponentType.Button, style: 2, label: 'Go', custom_id: customId };
  return (
    await channel.send({
      content: 'forged',
      components: [{ type: ComponentType.ActionRow, components: [button as never] }],
    })
  ).id;
}
