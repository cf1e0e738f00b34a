/**
 * The club cups admins define with `/cup` (docs/admins.md#cups): what they type read into a cup's
 * rules (src/season/cup.ts), each bad value refused with one message that says what is accepted,
 * and the cups kept in the store, each change one step and in the audit log.
 */
import { KNOWN_CLASSIFICATIONS, type KnownClassification } from '../eventor/model.js';
import { LANGUAGES, t } from '../i18n/index.js';
import { escapeName } from '../render/index.js';
import { DISCIPLINE_KEYS } from '../render/events.js';
import { CupRules, MAX_BEST, MAX_CHOSEN, MAX_CUP_DAYS, MAX_CUP_NAME } from '../season/cup.js';
import { isScoring } from '../season/scoring.js';
import type { Store } from '../store/interfaces.js';
import { addDays, localToday, parseDay } from '../time/days.js';
import type { AuditLog } from './audit.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import { fold } from '../text/fold.js';
import { type Cup, cupOf, sameClass, serverCups } from '../club/season.js';
import { CUP_STANDINGS_FEED, cupStandingsKey } from '../feeds/kinds/cup-standings/items.js';

/** A server's cups at most: Discord offers 25 choices, and each cup's standings cost the season's races only. */
export const MAX_CUPS = 25;

/** Eventor's discipline ids with the word `/cup` takes for each (the last part of its text's key: `foot`, `mtbo`, …). */
const DISCIPLINES = Object.entries(DISCIPLINE_KEYS).map(([id, key]) => ({ id, key, word: key.split('.').at(-1)! }));

/** Eventor's id of each level, and the short words Swedish and Norwegian admins type for it. */
const LEVEL_WORDS: Record<KnownClassification, string[]> = {
  championship: ['1', 'mästerskap', 'mesterskap'],
  national: ['2', 'nationell', 'nasjonal', 'nasjonalt'],
  district: ['3', 'distrikt', 'krets'],
  local: ['4', 'när', 'närtävling', 'nær', 'nærløp'],
  club: ['5', 'klubb'],
  international: ['6', 'internationell', 'internasjonal', 'internasjonalt'],
};

/** What `/cup create` or `/cup edit` was given; absent: unchanged (edit) or the default (create). */
export interface CupInput {
  name?: string;
  scoring?: string;
  /** 0 clears it: every race counts. */
  best?: number;
  levels?: string;
  disciplines?: string;
  from?: string;
  to?: string;
  events?: string;
  classes?: string;
  /** Whether its standings are posted (docs/admins.md#cup-standings-posts); a new cup's are not. */
  post?: boolean;
}

/** `-` (or nothing) given for a list clears it: everything counts. */
function items(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === '-') return [];
  return trimmed
    .split(/[,;\n]/)
    .map((s) => s.trim().replace(/\s+/g, ' '))
    .filter(Boolean);
}

/** A value as typed, safe to echo in a refusal: one line, cut, escaped. */
const echo = (value: string): string => escapeName(value, { max: 60 });

/** Every way a word may name a known thing: its code word, its id, its name in each language. */
function matcher<T>(options: ReadonlyArray<{ value: T; words: string[] }>): (word: string) => T | null {
  const byWord = new Map<string, T>();
  for (const option of options) for (const word of option.words) byWord.set(fold(word), option.value);
  return (word) => byWord.get(fold(word)) ?? null;
}

const levelOf = matcher(
  KNOWN_CLASSIFICATIONS.map((level) => ({
    value: level,
    words: [level, ...LEVEL_WORDS[level], ...LANGUAGES.map((l) => t(l, `render.level.${level}`))],
  })),
);

const disciplineOf = matcher(
  DISCIPLINES.map((d) => ({ value: d.id, words: [d.word, d.id, ...LANGUAGES.map((l) => t(l, d.key))] })),
);

function parseLevels(text: string): KnownClassification[] {
  const levels: KnownClassification[] = [];
  for (const word of items(text)) {
    const level = levelOf(word);
    if (level === null)
      throw new UserFacingError('cup.error.level', { given: echo(word), known: KNOWN_CLASSIFICATIONS.join(', ') });
    if (!levels.includes(level)) levels.push(level);
  }
  return levels;
}

function parseDisciplines(text: string): string[] {
  const ids: string[] = [];
  for (const word of items(text)) {
    const id = disciplineOf(word);
    if (id === null)
      throw new UserFacingError('cup.error.discipline', {
        given: echo(word),
        known: DISCIPLINES.map((d) => d.word).join(', '),
      });
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

function parseEvents(text: string): string[] {
  const ids: string[] = [];
  for (const word of items(text)) {
    if (!/^\d{1,18}$/.test(word)) throw new UserFacingError('cup.error.event', { given: echo(word) });
    if (!ids.includes(word)) ids.push(word);
  }
  if (ids.length > MAX_CHOSEN) throw new UserFacingError('cup.error.tooMany', { max: MAX_CHOSEN });
  return ids;
}

function parseClasses(text: string): string[] {
  const names: string[] = [];
  for (const word of items(text)) {
    if (word.length > 100) throw new UserFacingError('cup.error.class', { given: echo(word) });
    if (!names.some((n) => sameClass(n) === sameClass(word))) names.push(word);
  }
  if (names.length > MAX_CHOSEN) throw new UserFacingError('cup.error.tooMany', { max: MAX_CHOSEN });
  return names;
}

function parseName(text: string): string {
  const name = text.replace(/\s+/g, ' ').trim();
  if (name.length === 0 || name.length > MAX_CUP_NAME)
    throw new UserFacingError('cup.error.name', { max: MAX_CUP_NAME });
  return name;
}

function parseDate(text: string): string {
  const day = parseDay(text);
  if (day === null) throw new UserFacingError('cup.error.day', { given: echo(text) });
  return day;
}

function nameKey(name: string): string {
  return sameClass(name);
}

/** The rules `input` makes of `base` (unchanged where nothing was given), checked as a whole. */
function rulesOf(base: CupRules, input: CupInput): CupRules {
  let best = base.best;
  if (input.best !== undefined) {
    if (!Number.isInteger(input.best) || input.best < 0 || input.best > MAX_BEST)
      throw new UserFacingError('cup.error.best', { max: MAX_BEST });
    best = input.best === 0 ? null : input.best;
  }
  let scoring = base.scoring;
  if (input.scoring !== undefined) {
    if (!isScoring(input.scoring)) throw new UserFacingError('error.unexpected');
    scoring = input.scoring;
  }
  const from = input.from === undefined ? base.from : parseDate(input.from);
  let to = input.to === undefined ? base.to : parseDate(input.to);
  // A new start with no end given, past the old end or too far from it: to the end of its year.
  if (input.from !== undefined && input.to === undefined && (to < from || addDays(from, MAX_CUP_DAYS - 1) < to))
    to = `${from.slice(0, 4)}-12-31`;
  if (to < from) throw new UserFacingError('cup.error.range', { from, to });
  if (addDays(from, MAX_CUP_DAYS - 1) < to) throw new UserFacingError('cup.error.tooLong', { days: MAX_CUP_DAYS });
  return CupRules.parse({
    scoring,
    best,
    levels: input.levels === undefined ? base.levels : parseLevels(input.levels),
    disciplines: input.disciplines === undefined ? base.disciplines : parseDisciplines(input.disciplines),
    from,
    to,
    eventIds: input.events === undefined ? base.eventIds : parseEvents(input.events),
    classes: input.classes === undefined ? base.classes : parseClasses(input.classes),
  });
}

export class Cups {
  readonly #store: Store;
  readonly #audit: AuditLog;
  readonly #now: () => Date;

  constructor(deps: { store: Store; audit: AuditLog; now: () => Date }) {
    this.#store = deps.store;
    this.#audit = deps.audit;
    this.#now = deps.now;
  }

  /** The server's cups, by name (any this version cannot read are left out). */
  list(guildId: string): Promise<Cup[]> {
    return serverCups(this.#store, guildId);
  }

  /** The cup an option names: its id (an autocomplete choice) or its name as typed; anything else is refused. */
  async find(guildId: string, value: string): Promise<Cup> {
    const text = value.trim();
    const cups = await this.list(guildId);
    if (cups.length === 0) throw new UserFacingError('season.error.noCups');
    const found =
      (/^\d{1,15}$/.test(text) ? cups.find((c) => c.id === Number(text)) : undefined) ??
      cups.find((c) => nameKey(c.name) === nameKey(text));
    if (!found) throw new UserFacingError('cup.error.unknown', { name: echo(text) });
    return found;
  }

  /** A new cup: a name and a scoring; by default the current year (in `timeZone`) and every race. */
  async create(guildId: string, actorId: string, input: CupInput, timeZone: string): Promise<Cup> {
    const name = parseName(input.name ?? '');
    if (input.scoring === undefined) throw new UserFacingError('error.unexpected');
    const year = localToday(this.#now(), timeZone).slice(0, 4);
    const defaults: CupRules = {
      scoring: 'place',
      best: null,
      levels: [],
      disciplines: [],
      from: `${year}-01-01`,
      to: `${year}-12-31`,
      eventIds: [],
      classes: [],
    };
    const rules = rulesOf(defaults, input);
    const made = await this.#store.cups.create(
      guildId,
      { name, nameKey: nameKey(name), rules: JSON.stringify(rules), postStandings: input.post ?? false },
      MAX_CUPS,
    );
    if (made === 'exists') throw new UserFacingError('cup.error.nameTaken', { name: escapeName(name) });
    if (made === 'full') throw new UserFacingError('cup.error.full', { max: MAX_CUPS });
    await this.#audit.record({ guildId, actorId, action: 'cup-create', detail: name });
    return cupOf(made)!;
  }

  /** Changes what was given of a cup; the rest stays. */
  async edit(guildId: string, actorId: string, cup: Cup, input: CupInput): Promise<Cup> {
    const name = input.name === undefined ? cup.name : parseName(input.name);
    const rules = rulesOf(cup.rules, input);
    const changed = await this.#store.cups.update(guildId, cup.id, {
      name,
      nameKey: nameKey(name),
      rules: JSON.stringify(rules),
      ...(input.post === undefined ? {} : { postStandings: input.post }),
    });
    if (changed === 'gone') throw new UserFacingError('cup.error.gone');
    if (changed === 'exists') throw new UserFacingError('cup.error.nameTaken', { name: escapeName(name) });
    await this.#audit.record({ guildId, actorId, action: 'cup-edit', detail: name });
    return cupOf(changed)!;
  }

  /** Deletes a cup; false when it was already gone (a second click). */
  async delete(guildId: string, actorId: string, cup: Pick<Cup, 'id' | 'name'>): Promise<boolean> {
    const deleted = await this.#store.cups.delete(guildId, cup.id);
    if (deleted) await this.#audit.record({ guildId, actorId, action: 'cup-delete', detail: cup.name });
    return deleted;
  }

  /**
   * Where the cup's standings post is (docs/admins.md#cup-standings-posts), or null when it has none:
   * a deleted cup's post stays, and the admin is told where.
   */
  async standingsPost(guildId: string, cupId: number): Promise<{ channelId: string; messageId: string } | null> {
    const row = await this.#store.ledger.get({ guildId, feed: CUP_STANDINGS_FEED, itemKey: cupStandingsKey(cupId) });
    return row?.messageId ? { channelId: row.channelId, messageId: row.messageId } : null;
  }

  /** A cup by id, or null when it is gone (a button on an old message). */
  async byId(guildId: string, id: number): Promise<Cup | null> {
    const row = await this.#store.cups.get(guildId, id);
    return row === null ? null : cupOf(row);
  }
}
