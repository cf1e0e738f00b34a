/**
 * Pieces the member commands (/starts, /results) need beyond the shared renderers: the notices
 * for a start list or result list that does not exist yet.
 */
import type { ResultList, StartList } from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { fitPayload } from './fit.js';
import { eventUrl, truncate } from './format.js';
import { COLOURS } from './pages.js';
import { eventId, eventName } from './races.js';
import type { MessagePayload, RenderContext } from './types.js';

function notice(
  ref: StartList['event'],
  title: string,
  text: string,
  color: number,
  ctx: RenderContext,
): MessagePayload {
  const id = eventId(ref);
  return fitPayload({
    embeds: [
      {
        title: truncate(title, 256),
        ...(id ? { url: eventUrl(ctx, id) } : {}),
        color,
        description: text,
      },
    ],
  });
}

/** The club's start list in an event whose draw is not out: how many have entered, and that times come later. */
export function renderStartListNotPublished(
  startList: StartList,
  clubEntries: number | null,
  ctx: RenderContext,
): MessagePayload {
  const { language } = ctx;
  const title = t(language, 'render.starts.clubTitle', { event: eventName(startList.event, language) });
  const text =
    clubEntries === null
      ? t(language, 'members.starts.notPublishedPlain')
      : clubEntries === 0
        ? t(language, 'members.starts.notPublishedNoEntries')
        : t(language, 'members.starts.notPublished', { count: clubEntries });
  return notice(startList.event, title, text, COLOURS.starts, ctx);
}

/** The club's results in an event that has none yet. */
export function renderResultsNotYet(resultList: ResultList, ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const title = t(language, 'render.results.clubTitle', { event: eventName(resultList.event, language) });
  return notice(resultList.event, title, t(language, 'members.results.notYet'), COLOURS.results, ctx);
}
