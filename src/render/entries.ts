/**
 * Who from the club has entered: one event by class, and the count per upcoming event.
 */
import type { Entry, Event, EventClass } from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { nextDeadlineText } from './events.js';
import { discordTimestamp, escapeName, eventUrl, isPast, linkText, personNameText, truncate } from './format.js';
import { distinctNames, type Listed } from './namesakes.js';
import { COLOURS, type Section, sectionsToPages } from './pages.js';
import type { MessagePayload, PageOptions, RenderContext } from './types.js';

function entrantName(entry: Entry): string {
  if (entry.competitor) return personNameText(entry.competitor.person?.name) || '?';
  return entry.team?.name ?? '?';
}

/** Over once its finish (else its start) has passed: "has entered yet" would then be wrong. */
function eventIsOver(event: Event, ctx: RenderContext): boolean {
  const last = event.finish ?? event.start;
  return last !== null && isPast(last, ctx);
}

function listed(entry: Entry): Listed {
  const birthDate = entry.competitor?.person?.birthDate ?? null;
  return {
    name: entrantName(entry),
    birthYear: birthDate ? birthDate.slice(0, 4) : null,
    club: entry.competitor?.organisation?.name ?? null,
  };
}

/**
 * The club's entries in one event, grouped by class (class names from `classes`, else the
 * entry's own class names), with a count per class and in total.
 */
export function renderClubEntries(
  event: Event,
  entries: readonly Entry[],
  ctx: RenderContext,
  options: PageOptions & { classes?: readonly EventClass[] } = {},
): MessagePayload[] {
  const { language } = ctx;
  const classNames = new Map<string, string>();
  for (const c of options.classes ?? []) classNames.set(c.id, c.shortName ?? c.name);
  const order = new Map<string, number>();
  for (const [i, c] of (options.classes ?? []).entries()) order.set(c.shortName ?? c.name, i);
  const listedGroups = new Map<string, Listed[]>();
  for (const entry of entries) {
    const classId = entry.classIds[0];
    const name =
      (classId !== undefined ? classNames.get(classId) : undefined) ??
      entry.classNames[0] ??
      t(language, 'render.entries.noClass');
    const list = listedGroups.get(name) ?? [];
    list.push(listed(entry));
    listedGroups.set(name, list);
  }
  const groups = new Map<string, string[]>([...listedGroups].map(([name, people]) => [name, distinctNames(people)]));
  const collator = new Intl.Collator(language);
  const names = [...groups.keys()].sort(
    (a, b) => (order.get(a) ?? 1e9) - (order.get(b) ?? 1e9) || collator.compare(a, b),
  );
  const sections: Section[] = names.map((name) => {
    const people = groups.get(name)!.sort(collator.compare);
    return {
      heading: `**${escapeName(name)}** (${people.length})`,
      blocks: people.map((person) => `• ${escapeName(person, { max: 120 })}`),
    };
  });
  const intro = t(language, 'render.entries.total', { count: entries.length });
  const deadline = nextDeadlineText(event, ctx);
  const introLines = [intro];
  if (deadline) introLines.push(deadline);
  return sectionsToPages(
    sections,
    ctx,
    {
      title: truncate(t(language, 'render.entries.title', { event: escapeName(event.name) }), 256),
      url: eventUrl(ctx, event.id),
      color: COLOURS.brand,
    },
    {
      ...options,
      intro: introLines.join('\n'),
      empty: t(language, eventIsOver(event, ctx) ? 'render.entries.noneAfter' : 'render.entries.none'),
    },
  );
}

/** The club's entry count per upcoming event, with each event's next deadline. */
export function renderClubEntriesOverview(
  items: ReadonlyArray<{ event: Event; count: number }>,
  ctx: RenderContext,
  options: PageOptions = {},
): MessagePayload[] {
  const { language } = ctx;
  const blocks = items.map(({ event, count }) => {
    const date = event.start ? `${discordTimestamp(event.start, 'D')} ` : '';
    const cancelled = event.status === 'canceled' ? ` ❌ ${t(language, 'render.eventStatus.canceled')}` : '';
    const lines = [`${date}[${truncate(linkText(event.name), 150)}](${eventUrl(ctx, event.id)})${cancelled}`];
    const deadline = event.status === 'canceled' ? null : nextDeadlineText(event, ctx);
    const countText = t(language, 'render.entries.count', { count });
    lines.push(deadline ? `${countText} · ${deadline}` : countText);
    return lines.join('\n');
  });
  return sectionsToPages(
    [{ heading: null, blocks }],
    ctx,
    { title: t(language, 'render.entries.overviewTitle'), color: COLOURS.brand },
    {
      ...options,
      empty: t(language, 'render.entries.overviewNone'),
    },
  );
}
