/**
 * Previous/Next buttons under one page of the paged renderers' output (renderClubEntries,
 * renderClubEntriesOverview, ...), for commands that keep one message and update it in place.
 * The buttons look like renderEventList's, so every paged message behaves the same.
 */
import { ButtonStyle, ComponentType } from 'discord.js';
import { type Language, t } from '../i18n/index.js';
import { fitPayload } from './fit.js';
import type { MessagePayload } from './types.js';

/**
 * Page `page` (1-based, clamped) of `pages`, with buttons whose custom ids come from `customId(n)`.
 * A single page gets no buttons. The disabled button points at the current page so the two
 * custom ids stay distinct, as Discord requires.
 */
export function pageWithButtons(
  pages: readonly MessagePayload[],
  page: number,
  language: Language,
  customId: (n: number) => string,
): MessagePayload {
  const count = Math.max(1, pages.length);
  const current = Math.min(count, Math.max(1, Math.floor(page)));
  const payload = pages[current - 1] ?? fitPayload({});
  if (count === 1) return payload;
  return fitPayload({
    ...payload,
    components: [
      ...(payload.components ?? []),
      {
        type: ComponentType.ActionRow,
        components: [
          {
            type: ComponentType.Button,
            style: ButtonStyle.Secondary,
            label: t(language, 'render.previous'),
            custom_id: customId(current === 1 ? 1 : current - 1),
            disabled: current === 1,
          },
          {
            type: ComponentType.Button,
            style: ButtonStyle.Secondary,
            label: t(language, 'render.next'),
            custom_id: customId(current === count ? count : current + 1),
            disabled: current === count,
          },
        ],
      },
    ],
  });
}
