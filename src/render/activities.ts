/**
 * Club activities (training, meetings, trips): the list and one activity's card.
 */
import { type APIEmbedField, ButtonStyle, ComponentType } from 'discord.js';
import type { Activity } from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { DISCORD_LIMITS, fitPayload } from './fit.js';
import { discordTimestamp, escapeEventorText, escapeName, isPast, linkText, safeUrl, truncate } from './format.js';
import { COLOURS, sectionsToPages } from './pages.js';
import type { MessagePayload, PageOptions, RenderContext } from './types.js';

function deadlineText(activity: Activity, ctx: RenderContext): string {
  const deadline = activity.registrationDeadline;
  if (deadline === null) return '';
  const when = `${discordTimestamp(deadline, 'f')} (${discordTimestamp(deadline, 'R')})`;
  return isPast(deadline, ctx)
    ? `~~${t(ctx.language, 'render.activity.deadline', { when })}~~ ${t(ctx.language, 'render.deadline.passed')}`
    : t(ctx.language, 'render.activity.deadline', { when });
}

function countText(activity: Activity, ctx: RenderContext): string {
  return activity.registrationCount === null
    ? ''
    : t(ctx.language, 'render.activity.registered', { count: activity.registrationCount });
}

/**
 * Activities in the order given, each with start, registrations, deadline and link. With none,
 * "no upcoming activities" only when the period asked for has no past days in it.
 */
export function renderActivities(
  activities: readonly Activity[],
  ctx: RenderContext,
  options: PageOptions & { periodHasPastDays?: boolean } = {},
): MessagePayload[] {
  const { language } = ctx;
  const { periodHasPastDays = false, ...pageOptions } = options;
  const blocks = activities.map((activity) => {
    const url = safeUrl(activity.url);
    const name = truncate(url ? linkText(activity.name) : escapeName(activity.name), 150);
    const head = [
      activity.startTime ? discordTimestamp(activity.startTime, 'f') : '',
      url ? `**[${name}](${url})**` : `**${name}**`,
    ]
      .filter((part) => part !== '')
      .join(' ');
    const details = [countText(activity, ctx), deadlineText(activity, ctx)].filter((part) => part !== '').join(' · ');
    return details === '' ? head : `${head}\n${details}`;
  });
  return sectionsToPages(
    [{ heading: null, blocks }],
    ctx,
    { title: t(language, 'render.activity.title'), color: COLOURS.activity },
    {
      ...pageOptions,
      empty: t(language, periodHasPastDays ? 'render.activity.noneInPeriod' : 'render.activity.none'),
    },
  );
}

/** One activity: its information text (escaped, cut to fit), start, registrations, deadline and a link button. */
export function renderActivity(activity: Activity, ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const url = safeUrl(activity.url);
  const fields: APIEmbedField[] = [];
  if (activity.startTime) {
    fields.push({
      name: t(language, 'render.activity.start'),
      value: `${discordTimestamp(activity.startTime, 'F')} (${discordTimestamp(activity.startTime, 'R')})`,
    });
  }
  // The field names say what the values are, so the values are the bare count and date.
  if (activity.registrationCount !== null)
    fields.push({
      name: t(language, 'render.activity.registrations'),
      value: String(activity.registrationCount),
      inline: true,
    });
  const deadline = activity.registrationDeadline;
  if (deadline !== null) {
    const when = `${discordTimestamp(deadline, 'f')} (${discordTimestamp(deadline, 'R')})`;
    fields.push({
      name: t(language, 'render.activity.deadlineTitle'),
      value: isPast(deadline, ctx) ? `~~${when}~~ ${t(language, 'render.deadline.passed')}` : when,
      inline: true,
    });
  }
  const info = activity.information?.trim()
    ? truncate(escapeEventorText(activity.information.trim()), 3500)
    : undefined;
  return fitPayload({
    embeds: [
      {
        title: truncate(escapeName(activity.name), DISCORD_LIMITS.embedTitle),
        ...(url ? { url } : {}),
        color: COLOURS.activity,
        ...(info ? { description: info } : {}),
        fields,
      },
    ],
    ...(url
      ? {
          components: [
            {
              type: ComponentType.ActionRow,
              components: [
                {
                  type: ComponentType.Button,
                  style: ButtonStyle.Link,
                  label: t(language, 'render.activity.open'),
                  url,
                },
              ],
            },
          ],
        }
      : {}),
  });
}
