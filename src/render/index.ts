/**
 * The rendering layer: domain objects in, Discord message payloads out. Pure: no network, no
 * Discord client, no clock (the caller passes `ctx.now`). Every payload has passed `fitPayload`,
 * so it is within Discord's limits whatever the data, and has `allowedMentions: { parse: [] }`.
 * Eventor text is escaped (markdown, mentions, control characters) before it is shown.
 *
 * Context, built once per interaction or post:
 *   const ctx: RenderContext = { language: languageFor(interaction.locale), timeZone: 'Europe/Stockholm',
 *     now: new Date(), webUrl: instance.webUrl, organisationNames };
 *
 * Single payloads (send as they are: `interaction.reply({ ...payload, flags: MessageFlags.Ephemeral })`):
 *   renderEventList(events, ctx, { page, pageSize?, customIds: { page: (n) => id, pick: id } })
 *       One page (1-based, clamped) of the events in the order given. Select menu `customIds.pick`
 *       whose value is the event id; Previous/Next buttons with `customIds.page(n)` when there are
 *       several pages (the disabled one points at the current page, so ids stay unique).
 *   renderEventCard(event, { classes?, fees?, documents?, clubEntries? }, ctx)
 *   renderActivity(activity, ctx)
 *
 * Paged output, `MessagePayload[]` with at least one page (reply with the first, follow up with
 * the rest, or keep them for buttons). `maxPages` (default 10) bounds it; what does not fit is
 * counted in an "…and N more" line:
 *   renderClubEntries(event, entries, ctx, { classes?, maxPages? })
 *   renderClubEntriesOverview(items: { event, count }[], ctx, { maxPages? })
 *   renderPersonStarts(personName, startLists, ctx, { personId?, maxPages? })
 *   renderClubStartList(startList, ctx, { organisationId, maxPages? })
 *   renderPersonResults(personName, resultLists, ctx, { splits, personId?, maxPages? })
 *   renderClubResults(resultList, ctx, { organisationId, top, splits, maxPages? })
 *   renderActivities(activities, ctx, { maxPages? })
 *
 * With pictures (`payload.pictures`, which the sender turns into files):
 *   renderSplitsAnswer(answer, { graph, bars }, ctx)   the /splits answer
 *
 * Lists are shown in the order given: callers sort (events by date, results newest first).
 *
 * Pieces for other texts (reminders, notices): fitPayload (the guard; run any payload built by
 * hand through it), nextDeadlineText, formatStatus, formatPlace, formatBehind, formatElapsed,
 * discordTimestamp, escapeEventorText (free text), escapeName (one-line names, cut to NAME_MAX),
 * plainText (select labels, autocomplete choices, thread names), truncate, splitTable/splitRows, mapUrl, eventUrl.
 */

export { renderActivities, renderActivity } from './activities.js';
export { renderClubEntries, renderClubEntriesOverview } from './entries.js';
export {
  type EventCardExtras,
  type EventListOptions,
  nextDeadlineText,
  renderEventCard,
  renderEventList,
} from './events.js';
export { DISCORD_LIMITS, embedLength, fitPayload, truncateMarkdown } from './fit.js';
export {
  classificationText,
  discordTimestamp,
  escapeEventorText,
  escapeName,
  eventUrl,
  formatBehind,
  formatClock,
  formatElapsed,
  formatLocalDate,
  formatPlace,
  formatStatus,
  isHiddenStatus,
  mapUrl,
  NAME_MAX,
  personNameText,
  plainText,
  truncate,
} from './format.js';
export {
  type LiveAnswerRace,
  type LiveBoardView,
  type LiveOfferView,
  LIVE_PICK_ID,
  ordinalPlace,
  renderFinishMessage,
  renderLiveAnswer,
  renderLiveBoard,
  renderLiveFinishDm,
  renderLiveNotFound,
  renderLiveOffer,
} from './live.js';
export { renderResultsNotYet, renderStartListNotPublished } from './members.js';
export { pageWithButtons } from './paging.js';
export { type ClubResultsOptions, renderClubResults, renderPersonResults } from './results.js';
export { type SplitRow, splitRows, splitTable } from './splits.js';
export { MAX_MISTAKE_LINES, runnerAnalysisLines, TOO_LARGE_LIMITS, tooLargeText } from './split-analysis.js';
export {
  BARS_FILE,
  type DrawnPicture,
  GRAPH_FILE,
  MAX_RUNNERS_IN_WORDS,
  pictureFile,
  renderSplitsAnswer,
  type SplitsAnswer,
  splitsGroupName,
  splitsPictureTitle,
} from './splits-answer.js';
export {
  CLUB_SEASON_FILE,
  type ClubSeasonAnswer,
  clubSeasonPicture,
  type CupView,
  cupRulesLines,
  type MemberSeasonAnswer,
  memberSeasonPicture,
  renderClubSeason,
  renderCupList,
  renderCupStandings,
  renderMemberSeason,
  SEASON_FILE,
} from './season.js';
export { renderClubStartList, renderPersonStarts } from './starts.js';
export type { MessagePayload, PageOptions, PayloadFile, RenderContext } from './types.js';
