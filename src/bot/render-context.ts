/** What a command hands the renderers (language, zone, clock, Eventor's web address), and showing a page of a paged answer. */
import type { InteractionEditReplyOptions } from 'discord.js';
import type { GuildEventor } from '../club/eventor-access.js';
import type { Language } from '../i18n/index.js';
import type { MessagePayload, RenderContext } from '../render/index.js';
import type { Answer, BaseContext } from './command.js';

export function renderContext(
  ctx: BaseContext,
  eventor: GuildEventor,
  language: Language = ctx.language,
  organisationNames?: ReadonlyMap<string, string>,
): RenderContext {
  return {
    language,
    timeZone: ctx.guild.timeZone,
    now: ctx.now(),
    webUrl: eventor.instance.webUrl,
    organisationNames,
  };
}

/**
 * A payload's pictures as discord.js files: the bytes, the name its embeds point at with
 * `attachment://`, and the alt text as the attachment's description (docs/discord.md#attachments).
 */
export function payloadFiles(payload: MessagePayload): { attachment: Buffer; name: string; description: string }[] {
  return (payload.pictures ?? []).map((p) => ({
    attachment: Buffer.from(p.data.buffer, p.data.byteOffset, p.data.byteLength),
    name: p.name,
    description: p.description,
  }));
}

/**
 * Answer options as discord.js takes them: a payload handed over whole keeps its pictures, as
 * files, and discord.js never sees the `pictures` it does not know.
 */
export function answerOptions(options: string | InteractionEditReplyOptions): string | InteractionEditReplyOptions {
  if (typeof options === 'string' || !('pictures' in options)) return options;
  const { pictures, ...rest } = options as InteractionEditReplyOptions & Pick<MessagePayload, 'pictures'>;
  const files = payloadFiles({ allowedMentions: { parse: [] }, ...(pictures ? { pictures } : {}) });
  return files.length === 0 ? rest : { ...rest, files: [...(rest.files ?? []), ...files] };
}

/**
 * Replaces the deferred reply (or the message whose button was clicked) with one page, its pictures
 * as files: never the payload spread, whose `pictures` discord.js does not know.
 */
export async function showPage(answer: Answer, payload: MessagePayload): Promise<void> {
  const files = payloadFiles(payload);
  await answer({
    content: payload.content ?? '',
    embeds: payload.embeds ?? [],
    components: payload.components ?? [],
    allowedMentions: payload.allowedMentions,
    ...(files.length > 0 ? { files } : {}),
  });
}
