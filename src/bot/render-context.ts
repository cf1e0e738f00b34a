/** What a command hands the renderers (language, zone, clock, Eventor's web address), and showing a page of a paged answer. */
import type { GuildEventor } from '../app/eventor-access.js';
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
    ...(organisationNames ? { organisationNames } : {}),
  };
}

/** Replaces the deferred reply (or the message whose button was clicked) with one page. */
export async function showPage(answer: Answer, payload: MessagePayload): Promise<void> {
  await answer({
    content: payload.content ?? '',
    embeds: payload.embeds ?? [],
    components: payload.components ?? [],
    allowedMentions: payload.allowedMentions,
  });
}
