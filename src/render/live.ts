/**
 * The live board and the finish messages (docs/live-results.md#what-the-board-shows), pure like the
 * rest of rendering: the club's runners of one live competition in, one message payload out, within
 * Discord's limits whatever the data. Every name from LiveResultat (runner, club, class, the
 * competition) is cleaned as Eventor's are (format.ts), so a name cannot mention, format or hide.
 *
 * The board: per class, each runner with the start time, the last radio control passed (place and
 * time behind there), or the result (place, time, behind) or the status (MP, DNF, DSQ, DNS); how
 * many are out, home and still to start; "final" with a link to the results post once final.
 * A finish message: "Astrid, D10: 2nd, +0:41".
 */
import { type APIEmbed, ButtonStyle, ComponentType } from 'discord.js';
import { type Language, t } from '../i18n/index.js';
import type { LiveRunner, LiveStatus } from '../live/model.js';
import { lastRadio, statusAt } from '../live/rows.js';
import { fitPayload } from './fit.js';
import { discordTimestamp, escapeName, formatElapsed, linkText, plainText, safeUrl } from './format.js';
import { COLOURS } from './pages.js';
import type { MessagePayload, RenderContext } from './types.js';

/** What the board shows; the caller read it from the live source and knows whether it is final. */
export interface LiveBoardView {
  competition: { id: number; name: string };
  /** The club's runners as last read. */
  runners: readonly LiveRunner[];
  /** Seconds after local midnight of the competition day at `ctx.now` (`secondsIntoDay`). */
  secondsIntoDay: number;
  /** The board will not change again: Eventor's results are out, or the competition stopped changing. */
  final: boolean;
  /** The results post to link once final (a Discord message link), or null. */
  resultsUrl?: string | null;
  /** The competition on LiveResultat's own pages, or null. */
  liveUrl?: string | null;
  /** When the runners were read. */
  readAt: Date;
  /** The live source failed at the last turns: the board says it shows the last state read. */
  sourceDown?: boolean;
}

/** Room kept under the description's 4096 characters for the "and N more" line. */
const DESCRIPTION_BUDGET = 3900;
const LIVE_COLOUR = 0xe0245e;

const HOME: ReadonlySet<LiveStatus> = new Set(['finished', 'mp', 'dnf', 'dsq']);

const STATUS_KEYS = {
  mp: 'render.status.MissingPunch',
  dnf: 'render.status.DidNotFinish',
  dsq: 'render.status.Disqualified',
  dns: 'render.status.DidNotStart',
} as const;

/** "2nd", "2:a", "2." in the language's own way of writing a place. */
export function ordinalPlace(place: number, language: Language): string {
  const form = new Intl.PluralRules(language === 'nb' ? 'nb' : language, { type: 'ordinal' }).select(place);
  const key = form === 'one' || form === 'two' || form === 'few' ? form : 'other';
  return t(language, `live.ordinal.${key}`, { place });
}

/** A start time (seconds after local midnight) as `HH:MM`, or `HH:MM:SS` when the seconds matter. */
function startClock(seconds: number): string {
  const h = String(Math.floor(seconds / 3600) % 24).padStart(2, '0');
  const m = String(Math.floor((seconds % 3600) / 60)).padStart(2, '0');
  const s = seconds % 60;
  return s === 0 ? `${h}:${m}` : `${h}:${m}:${String(s).padStart(2, '0')}`;
}

function behindText(seconds: number | null): string {
  return seconds === null ? '' : `+${formatElapsed(seconds)}`;
}

/** Place and time behind at a control or the finish: `2. +1:56`, `1.`. */
function standing(place: number | null, behind: number | null): string {
  return [place === null ? '' : `${place}.`, behind === null || behind === 0 ? '' : behindText(behind)]
    .filter((part) => part !== '')
    .join(' ');
}

/** One runner's line on the board. */
function runnerLine(runner: LiveRunner, seconds: number, language: Language): string {
  const name = escapeName(runner.name);
  const status = statusAt(runner, seconds);
  switch (status) {
    case 'finished': {
      const place = runner.place === null ? '' : `**${runner.place}.** `;
      const time = runner.time === null ? '' : formatElapsed(runner.time);
      const behind = runner.behind === null || runner.behind === 0 ? '' : ` ${behindText(runner.behind)}`;
      return `${place}${name} · ${time}${behind}`;
    }
    case 'running': {
      const last = lastRadio(runner);
      const where =
        last === null
          ? `*${t(language, 'render.status.Active')}*`
          : t(language, 'live.board.atControl', {
              control: last.code % 1000,
              standing: standing(last.place, last.behind),
            });
      return `🏃 ${name} · ${where}`;
    }
    case 'not-started':
      return `${name} · ${runner.start === null ? t(language, 'live.board.noStart') : t(language, 'live.board.starts', { clock: startClock(runner.start) })}`;
    case 'other':
      return `${name} · *${t(language, 'live.board.other')}*`;
    default:
      return `${name} · **${t(language, STATUS_KEYS[status])}**`;
  }
}

/** The board as one message: an embed titled with the competition, the counts, then the runners by class. */
export function renderLiveBoard(view: LiveBoardView, ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const statuses = view.runners.map((runner) => statusAt(runner, view.secondsIntoDay));
  const count = (test: (status: LiveStatus) => boolean) => statuses.filter(test).length;
  const counts = t(language, 'live.board.counts', {
    out: count((s) => s === 'running'),
    home: count((s) => HOME.has(s)),
    waiting: count((s) => s === 'not-started'),
  });
  const head: string[] = [counts];
  if (view.sourceDown && !view.final) head.push(`*${t(language, 'live.board.sourceDown')}*`);
  if (view.final) {
    const results = safeUrl(view.resultsUrl);
    head.push(
      results === null
        ? `**${t(language, 'live.board.final')}**`
        : `**${t(language, 'live.board.finalWithResults', { link: `[${linkText(t(language, 'live.board.resultsLink'))}](${results})` })}**`,
    );
  }
  const lines: string[] = [];
  if (view.runners.length === 0) lines.push(t(language, 'live.board.none'));
  // Classes in the order their first runner comes, each under its name.
  const byClass = new Map<string, LiveRunner[]>();
  for (const runner of view.runners) {
    const list = byClass.get(runner.className) ?? [];
    list.push(runner);
    byClass.set(runner.className, list);
  }
  const blocks: string[] = [];
  for (const [className, runners] of byClass) {
    blocks.push(`\n**${escapeName(className)}**`);
    for (const runner of runners) blocks.push(runnerLine(runner, view.secondsIntoDay, language));
  }
  let description = [...head, ...lines].join('\n');
  let shown = 0;
  const total = blocks.filter((block) => !block.startsWith('\n')).length;
  for (const block of blocks) {
    if (description.length + 1 + block.length > DESCRIPTION_BUDGET) break;
    description += `\n${block}`;
    if (!block.startsWith('\n')) shown++;
  }
  if (shown < total) description += `\n${t(language, 'render.andMore', { count: total - shown })}`;
  description += `\n\n${t(language, 'live.board.updated', { when: discordTimestamp(view.readAt, 'R') })}`;
  const title = t(language, view.final ? 'live.board.titleFinal' : 'live.board.title', {
    competition: escapeName(view.competition.name),
  });
  const url = safeUrl(view.liveUrl);
  const embed: APIEmbed = {
    title,
    description,
    color: view.final ? COLOURS.results : LIVE_COLOUR,
    footer: { text: plainText(t(language, 'live.board.footer', { id: view.competition.id })) },
    timestamp: view.readAt.toISOString(),
    ...(url === null ? {} : { url }),
  };
  return fitPayload({ embeds: [embed], allowedMentions: { parse: [] } });
}

/** The name a finish message calls a runner by: the given name ("Anna" of "Anna Berg" and of "Berg, Anna"). */
function givenName(name: string): string {
  const comma = name.indexOf(',');
  const given = comma >= 0 ? name.slice(comma + 1).trim() : name.trim();
  return given.split(/\s+/)[0] ?? given;
}

export interface FinishOptions {
  /** Call the runner by the whole name (two of the club's runners in the class share a given name). */
  fullName?: boolean;
  /** The finish was told before and changed since (a new place, a corrected time). */
  corrected?: boolean;
}

/**
 * One finish as a short message: "Astrid, D10: 2nd, +0:41"; the winner's time instead of the time
 * behind; MP, DNF or DSQ instead of both. Null for a runner who has not finished.
 */
export function renderFinishMessage(
  runner: LiveRunner,
  ctx: RenderContext,
  options: FinishOptions = {},
): MessagePayload | null {
  const { language } = ctx;
  const name = escapeName(options.fullName ? runner.name : givenName(runner.name));
  const className = escapeName(runner.className);
  let text: string;
  if (runner.status === 'finished') {
    if (runner.place === null || runner.time === null) return null;
    const place = ordinalPlace(runner.place, language);
    text =
      runner.behind === null || runner.behind === 0
        ? t(language, 'live.finish.winner', { name, class: className, place, time: formatElapsed(runner.time) })
        : t(language, 'live.finish.placed', { name, class: className, place, behind: behindText(runner.behind) });
  } else if (runner.status === 'mp' || runner.status === 'dnf' || runner.status === 'dsq') {
    text = t(language, 'live.finish.status', {
      name,
      class: className,
      status: t(language, STATUS_KEYS[runner.status]),
    });
  } else return null;
  if (options.corrected) text = t(language, 'live.finish.corrected', { text });
  return fitPayload({ content: text, allowedMentions: { parse: [] } });
}

/**
 * The custom id of the button that takes an offered competition: `live:pick:<eventId>:<raceId>:<id>`,
 * the wire form of `/live`'s codec of that name (commands/live.ts decodes it, and checks it).
 */
export const LIVE_PICK_ID = 'live:pick';

/** A race whose live competition is uncertain, offered to the admins, best first. */
export interface LiveOfferView {
  race: string;
  eventId: string;
  raceId: string;
  candidates: ReadonlyArray<{ id: number; name: string; organiser: string }>;
}

/** Discord's most buttons in one row, and its longest button label. */
const BUTTONS_PER_ROW = 5;
const BUTTON_LABEL_MAX = 80;

/**
 * The admins' question: which of these live competitions is the race? One button per candidate
 * (only admins may press it); `/live link` for any other. Every name from LiveResultat cleaned.
 */
export function renderLiveOffer(view: LiveOfferView, ctx: RenderContext): MessagePayload {
  const { language } = ctx;
  const candidates = view.candidates.slice(0, BUTTONS_PER_ROW);
  const lines = candidates.map((c) =>
    t(language, 'live.offer.candidate', { id: c.id, name: escapeName(c.name), organiser: escapeName(c.organiser) }),
  );
  const embed: APIEmbed = {
    title: t(language, 'live.offer.title', { race: escapeName(view.race) }),
    description: [t(language, 'live.offer.intro'), '', ...lines, '', t(language, 'live.offer.other')].join('\n'),
    color: LIVE_COLOUR,
  };
  return fitPayload({
    embeds: [embed],
    components: [
      {
        type: ComponentType.ActionRow,
        components: candidates.map((c) => ({
          type: ComponentType.Button,
          style: ButtonStyle.Secondary,
          label: plainText(t(language, 'live.offer.button', { id: c.id, name: c.name }), BUTTON_LABEL_MAX),
          custom_id: `${LIVE_PICK_ID}:${view.eventId}:${view.raceId}:${c.id}`,
        })),
      },
    ],
    allowedMentions: { parse: [] },
  });
}

/** No live competition found for a race: said once, with how to give it. */
export function renderLiveNotFound(race: string, ctx: RenderContext): MessagePayload {
  return fitPayload({
    content: t(ctx.language, 'live.offer.none', { race: escapeName(race) }),
    allowedMentions: { parse: [] },
  });
}

/** A member's DM: their linked person finished (place, time, behind), or got MP, DNF, DSQ. */
export function renderLiveFinishDm(
  runner: LiveRunner,
  ctx: RenderContext,
  options: { competition: string; own: boolean; server: string | null },
): MessagePayload | null {
  const { language } = ctx;
  const name = escapeName(runner.name);
  const className = escapeName(runner.className);
  const competition = escapeName(options.competition);
  let text: string;
  if (runner.status === 'finished') {
    if (runner.time === null) return null;
    const place = runner.place === null ? '' : ordinalPlace(runner.place, language);
    const behind = runner.behind === null || runner.behind === 0 ? '' : behindText(runner.behind);
    const key =
      runner.place === null
        ? options.own
          ? 'live.dm.ownNoPlace'
          : 'live.dm.otherNoPlace'
        : behind === ''
          ? options.own
            ? 'live.dm.ownFirst'
            : 'live.dm.otherFirst'
          : options.own
            ? 'live.dm.own'
            : 'live.dm.other';
    text = t(language, key, { name, class: className, competition, place, time: formatElapsed(runner.time), behind });
  } else if (runner.status === 'mp' || runner.status === 'dnf' || runner.status === 'dsq') {
    text = t(language, options.own ? 'live.dm.ownStatus' : 'live.dm.otherStatus', {
      name,
      class: className,
      competition,
      status: t(language, STATUS_KEYS[runner.status]),
    });
  } else return null;
  const from =
    options.server === null ? '' : `\n-# ${t(language, 'live.dm.from', { server: escapeName(options.server) })}`;
  return fitPayload({ content: `${text}${from}`, allowedMentions: { parse: [] } });
}

/** One of today's races in a member's `/live` answer: its board as last read, or a line saying why there is none yet. */
export interface LiveAnswerRace {
  /** `**race**: how it was found…`, already worded (the catalogue's `live.show.*`). */
  line: string;
  board: LiveBoardView | null;
}

/** Discord's most embeds in one message. */
const EMBEDS_MAX = 10;

/**
 * `/live`: the boards of today's races as they stand now (the same as in the channel), and a line for
 * each race without one yet; `empty` when the server follows no race today.
 */
export function renderLiveAnswer(races: readonly LiveAnswerRace[], empty: string, ctx: RenderContext): MessagePayload {
  if (races.length === 0) return fitPayload({ content: empty, allowedMentions: { parse: [] } });
  const lines = races.filter((race) => race.board === null).map((race) => race.line);
  const embeds = races
    .filter((race) => race.board !== null)
    .slice(0, EMBEDS_MAX)
    .flatMap((race) => renderLiveBoard(race.board!, ctx).embeds ?? []);
  return fitPayload({
    ...(lines.length > 0 ? { content: lines.join('\n') } : {}),
    embeds,
    allowedMentions: { parse: [] },
  });
}
