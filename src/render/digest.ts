/**
 * The weekly digest: the club's starts in the coming days, the entry deadlines of the next days
 * with the club's count, last week's results in a few lines (wins and podiums first, how many ran)
 * and the week's club activities, in one message. However big the club, each part is summarised
 * with "and N more" and no line is ever cut: the parts share Discord's 6000 characters of embeds.
 */
import type { APIEmbed } from 'discord.js';
import type { Activity } from '../eventor/answers.js';
import { t } from '../i18n/index.js';
import { fitPayload } from './fit.js';
import { discordTimestamp, escapeName, eventUrl, formatClock, linkText, safeUrl, truncate } from './format.js';
import { COLOURS } from './pages.js';
import type { MessagePayload, RenderContext } from './types.js';

/** An event as the digest names it. */
export interface DigestEvent {
  id: string;
  name: string;
  start: string | null;
}

/** One club runner of a coming race: from the start list (with a start time) or the entries. */
export interface DigestRunner {
  name: string;
  className: string | null;
  startTime: string | null;
}

export interface DigestStart {
  event: DigestEvent;
  /** From the published start list; false: from the entries (no start times yet). */
  startList: boolean;
  runners: DigestRunner[];
}

export interface DigestDeadline {
  event: DigestEvent;
  deadline: string;
  late: boolean;
  /** The club's entries so far. */
  count: number;
}

/** A club runner (or team) on the podium: 1, 2 or 3 in their class. */
export interface DigestPodium {
  name: string;
  className: string;
  position: 1 | 2 | 3;
  event: DigestEvent;
}

export interface DigestResults {
  /** Each race of the week with club runners, with how many of them ran. */
  events: Array<{ event: DigestEvent; ran: number }>;
  podiums: DigestPodium[];
}

export interface DigestData {
  /** The ISO week the digest is for (`2026-W48`). */
  week: string;
  starts: DigestStart[];
  deadlines: DigestDeadline[];
  results: DigestResults;
  activities: Activity[];
}

export interface DigestOptions {
  /** The digest comes late (the bot was away, or quiet hours held it): when it was due. */
  lateSince?: string | null;
}

/** All parts' descriptions together: Discord allows 6000 characters over a message's embeds, titles and footer included. */
export const DIGEST_BUDGET = 5400;
/** One embed's description may hold 4096. */
const EMBED_MAX = 4000;
/** Room kept in each part for its "and N more" line. */
const MORE_RESERVE = 60;

/** Each part's share before the rest is handed to the parts that need more (starts first). */
const SHARES = { starts: 2200, deadlines: 1100, results: 1200, activities: 900 } as const;
type PartName = keyof typeof SHARES;

/** A line of a part: an item (counted in "and N more") or a heading that goes only with its first item. */
interface Line {
  text: string;
  item: boolean;
}

/** A part's lines within `budget` characters, whole lines only, the rest counted in "and N more". */
export function fitLines(lines: readonly Line[], budget: number, more: (count: number) => string): string {
  const items = lines.filter((l) => l.item).length;
  const room = budget - MORE_RESERVE;
  const out: string[] = [];
  let used = 0;
  let shown = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const next = lines[i + 1];
    // A heading only with the item under it: never a heading with nothing below.
    const need = line.item ? line.text.length + 1 : line.text.length + 1 + (next ? next.text.length + 1 : 0);
    if (used + need > room) break;
    out.push(line.text);
    used += line.text.length + 1;
    if (line.item) shown++;
  }
  if (shown < items) out.push(more(items - shown));
  return out.join('\n');
}

function eventLink(event: DigestEvent, ctx: RenderContext): string {
  return `[${truncate(linkText(event.name), 120)}](${eventUrl(ctx, event.id)})`;
}

function byTimeThenName(a: DigestRunner, b: DigestRunner): number {
  return (
    (a.startTime ?? '\uffff').localeCompare(b.startTime ?? '\uffff') ||
    (a.className ?? '').localeCompare(b.className ?? '') ||
    a.name.localeCompare(b.name)
  );
}

function startLines(starts: readonly DigestStart[], ctx: RenderContext): Line[] {
  const lines: Line[] = [];
  const sorted = [...starts].sort(
    (a, b) => (a.event.start ?? '').localeCompare(b.event.start ?? '') || a.event.id.localeCompare(b.event.id),
  );
  for (const { event, startList, runners } of sorted) {
    if (runners.length === 0) continue;
    const when = event.start ? ` · ${discordTimestamp(event.start, 'D')}` : '';
    const source = startList ? '' : ` · ${t(ctx.language, 'feedpost.digest.entriesOnly')}`;
    lines.push({ text: `**${eventLink(event, ctx)}**${when}${source}`, item: false });
    for (const runner of [...runners].sort(byTimeThenName)) {
      const clock = runner.startTime ? `${formatClock(runner.startTime, ctx)} ` : '';
      const klass = runner.className ? ` (${escapeName(runner.className, { max: 40 })})` : '';
      lines.push({ text: `• ${clock}${escapeName(runner.name, { max: 80 })}${klass}`, item: true });
    }
  }
  return lines;
}

function deadlineLines(deadlines: readonly DigestDeadline[], ctx: RenderContext): Line[] {
  return [...deadlines]
    .sort((a, b) => a.deadline.localeCompare(b.deadline) || a.event.id.localeCompare(b.event.id))
    .map((d) => {
      const late = d.late ? ` (${t(ctx.language, 'feedpost.digest.lateEntry')})` : '';
      const count =
        d.count === 0
          ? t(ctx.language, 'feedpost.digest.enteredNone')
          : t(ctx.language, 'feedpost.digest.entered', { count: d.count });
      return {
        text: `• ${discordTimestamp(d.deadline, 'f')}${late}: ${eventLink(d.event, ctx)} · ${count}`,
        item: true,
      };
    });
}

const MEDALS = { 1: '🥇', 2: '🥈', 3: '🥉' } as const;

function resultLines(results: DigestResults, ctx: RenderContext): Line[] {
  const ran = results.events.reduce((sum, e) => sum + e.ran, 0);
  if (results.events.length === 0) return [];
  const lines: Line[] = [
    {
      text: t(ctx.language, 'feedpost.digest.ran', { count: ran }) + ' ' + podiumSummary(results.podiums, ctx),
      item: false,
    },
  ];
  // Wins first, then seconds and thirds; within a place, in the order the races were run.
  const podiums = [...results.podiums].sort(
    (a, b) =>
      a.position - b.position ||
      (a.event.start ?? '').localeCompare(b.event.start ?? '') ||
      a.event.id.localeCompare(b.event.id) ||
      a.name.localeCompare(b.name),
  );
  // With one race in the week its name is on its own line below; with several, each podium says which.
  const several = results.events.length > 1;
  for (const p of podiums) {
    const where = several ? ` – ${eventLink(p.event, ctx)}` : '';
    lines.push({
      text: `${MEDALS[p.position]} ${escapeName(p.name, { max: 80 })}, ${escapeName(p.className, { max: 40 })}${where}`,
      item: true,
    });
  }
  for (const { event, ran: count } of [...results.events].sort((a, b) =>
    (a.event.start ?? '').localeCompare(b.event.start ?? ''),
  )) {
    lines.push({
      text: `• ${eventLink(event, ctx)}: ${t(ctx.language, 'feedpost.digest.eventRan', { count })}`,
      item: true,
    });
  }
  // The summary line is the part's heading: it goes with the first line under it.
  return lines.length === 1 ? [{ ...lines[0]!, item: true }] : lines;
}

function podiumSummary(podiums: readonly DigestPodium[], ctx: RenderContext): string {
  const wins = podiums.filter((p) => p.position === 1).length;
  if (podiums.length === 0) return t(ctx.language, 'feedpost.digest.noPodiums');
  return t(ctx.language, 'feedpost.digest.podiums', { count: podiums.length, wins });
}

function activityLines(activities: readonly Activity[], ctx: RenderContext): Line[] {
  return [...activities]
    .filter((a) => a.startTime !== null)
    .sort((a, b) => a.startTime!.localeCompare(b.startTime!) || a.id.localeCompare(b.id))
    .map((a) => {
      const url = safeUrl(a.url);
      const name = url ? `[${truncate(linkText(a.name), 120)}](${url})` : `**${escapeName(a.name, { max: 120 })}**`;
      const count =
        a.registrationCount === null
          ? ''
          : ` · ${t(ctx.language, 'feedpost.digest.registered', { count: a.registrationCount })}`;
      return { text: `• ${discordTimestamp(a.startTime!, 'f')} ${name}${count}`, item: true };
    });
}

/** Each part's budget: its share, then what the smaller parts leave handed to the bigger ones in order. */
function budgets(needs: Readonly<Record<PartName, number>>): Record<PartName, number> {
  const names = Object.keys(SHARES) as PartName[];
  const given = Object.fromEntries(names.map((n) => [n, Math.min(needs[n], SHARES[n])])) as Record<PartName, number>;
  let left = DIGEST_BUDGET - names.reduce((sum, n) => sum + given[n], 0);
  for (const n of names) {
    const extra = Math.max(0, Math.min(needs[n] - given[n], left, EMBED_MAX - given[n]));
    given[n] += extra;
    left -= extra;
  }
  return given;
}

/** The ISO week's number for the title (`2026-W48` → 48). */
function weekNumber(week: string): number {
  return Number(week.slice(week.indexOf('W') + 1));
}

/** The digest of one week as one message (pure: the clock is `ctx.now`). */
export function renderDigest(data: DigestData, ctx: RenderContext, options: DigestOptions = {}): MessagePayload {
  const { language } = ctx;
  const more = (count: number): string => t(language, 'feedpost.digest.more', { count });
  const parts: Record<PartName, { title: string; lines: Line[]; colour: number }> = {
    starts: {
      title: t(language, 'feedpost.digest.startsTitle'),
      lines: startLines(data.starts, ctx),
      colour: COLOURS.starts,
    },
    deadlines: {
      title: t(language, 'feedpost.digest.deadlinesTitle'),
      lines: deadlineLines(data.deadlines, ctx),
      colour: COLOURS.brand,
    },
    results: {
      title: t(language, 'feedpost.digest.resultsTitle'),
      lines: resultLines(data.results, ctx),
      colour: COLOURS.results,
    },
    activities: {
      title: t(language, 'feedpost.digest.activitiesTitle'),
      lines: activityLines(data.activities, ctx),
      colour: COLOURS.activity,
    },
  };
  const names = (Object.keys(parts) as PartName[]).filter((n) => parts[n].lines.length > 0);
  const needs = Object.fromEntries(
    (Object.keys(parts) as PartName[]).map((n) => [
      n,
      names.includes(n) ? parts[n].lines.reduce((sum, l) => sum + l.text.length + 1, 0) + MORE_RESERVE : 0,
    ]),
  ) as Record<PartName, number>;
  const given = budgets(needs);
  const embeds: APIEmbed[] = names.map((n) => ({
    title: parts[n].title,
    description: fitLines(parts[n].lines, given[n], more),
    color: parts[n].colour,
  }));
  if (embeds.length === 0)
    embeds.push({
      title: t(language, 'feedpost.digest.quietTitle'),
      description: t(language, 'feedpost.digest.quiet'),
    });
  embeds[embeds.length - 1]!.footer = { text: t(language, 'feedpost.digest.footer') };
  const lines = [t(language, 'feedpost.digest.content', { week: weekNumber(data.week) })];
  if (options.lateSince)
    lines.push(t(language, 'feedpost.digest.late', { when: discordTimestamp(options.lateSince, 'f') }));
  return fitPayload({ content: lines.join('\n'), embeds, allowedMentions: { parse: [] } });
}
