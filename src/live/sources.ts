/**
 * The two APIs behind one interface (docs/live-results.md#the-two-apis): the REST API
 * (`RestSource`: ETags and real 304s, valid JSON, an export of the whole competition) and the older
 * `api.php` (`LegacySource`: a `hash` to send back as `last_hash`, "NOT MODIFIED" in a 200,
 * sometimes invalid JSON; LiveRes runs the same methods with its own ids). Both read the same
 * competition ids on LiveResultat, so either can stand in for the other.
 *
 * Every answer is checked against what was asked: a competition answered under another id, or a
 * class under another name, is refused (WrongCompetition) rather than shown.
 */
import { z } from 'zod';
import { LiveError } from './errors.js';
import { LiveHttp, type LiveHttpOptions } from './http.js';
import {
  type Conditional,
  LiveCompetition,
  type LiveClassResults,
  LiveOverview,
  type LiveSourceKind,
} from './model.js';
import { classResultsOf, controlsFrom } from './rows.js';
import { className as classNameOf, cleanText, integer, parseLiveJson } from './text.js';

export interface LiveSource {
  readonly kind: LiveSourceKind;
  /** The competitions held on `date` (YYYY-MM-DD). */
  competitionsOn(date: string): Promise<LiveCompetition[]>;
  /** One competition; LiveError NotFound when the id is unknown. */
  competition(id: number): Promise<LiveCompetition>;
  classes(id: number, token?: string | null): Promise<Conditional<string[]>>;
  /** A class's results; an unknown class is an empty class (the services answer it so). */
  classResults(id: number, className: string, token?: string | null): Promise<Conditional<LiveClassResults>>;
  /** The whole competition for change detection; null when this API has no such read. */
  overview(id: number, token?: string | null): Promise<Conditional<LiveOverview> | null>;
  close(): Promise<void>;
}

/** A token is tagged with its source, so that one from the other API is never sent (it would never match). */
function tokenFor(kind: LiveSourceKind, token: string | null | undefined): string | null {
  const prefix = `${kind}:`;
  return token?.startsWith(prefix) ? token.slice(prefix.length) : null;
}

function tagged(kind: LiveSourceKind, value: string | null): string | null {
  return value === null || value === '' ? null : `${kind}:${value}`;
}

const LooseObject = z.looseObject({});
const ListItem = z.looseObject({ id: z.unknown(), name: z.unknown(), date: z.unknown() });

/** A competition entry of either API as the model's competition, or null when it lacks an id, a name or a date. */
function competitionOf(item: Readonly<Record<string, unknown>>): LiveCompetition | null {
  const id = integer(item.id);
  const date = typeof item.date === 'string' ? item.date.trim().slice(0, 10) : '';
  const name = cleanText(item.name);
  if (id === null || id <= 0 || name === '' || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const zone = typeof item.timezone === 'string' && item.timezone.trim() !== '' ? item.timezone.trim() : null;
  const country =
    typeof item.country === 'string' && /^[a-z]{2}$/i.test(item.country.trim())
      ? item.country.trim().toLowerCase()
      : null;
  const stage = integer(item.multiDayStage ?? item.multidaystage);
  const first = integer(item.multiDayFirstDay ?? item.multidayfirstday);
  const parsed = LiveCompetition.safeParse({
    id,
    name,
    organiser: cleanText(item.organizer),
    date,
    timeZone: zone,
    timediff: typeof item.timediff === 'number' || typeof item.timediff === 'string' ? Number(item.timediff) || 0 : 0,
    country,
    multiDayStage: stage !== null && stage > 0 ? stage : null,
    multiDayFirstDay: first !== null && first > 0 ? first : null,
  });
  return parsed.success ? parsed.data : null;
}

/** A query string of `params`: encodeURIComponent, not URLSearchParams, so a class name's space is %20 and its `/` %2F. */
function queryString(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');
}

/** The class names of a class list: strings (REST) or `{className}` objects (api.php), each once. */
function classNamesIn(json: unknown): string[] {
  const names = listOf(json, 'classes')
    .map((item) =>
      classNameOf(typeof item === 'object' && item !== null ? (item as { className?: unknown }).className : item),
    )
    .filter((name) => name !== '');
  return [...new Set(names)];
}

function listOf(json: unknown, key: string): unknown[] {
  if (Array.isArray(json)) return json;
  const value = typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[key] : undefined;
  return Array.isArray(value) ? value : [];
}

function invalid(what: string, source: LiveSourceKind, problem: string): LiveError {
  return new LiveError('InvalidResponse', `the answer to ${what} ${problem}`, source);
}

function checkClassName(asked: string, answered: unknown, what: string, source: LiveSourceKind): void {
  if (typeof answered === 'string' && answered.trim() !== '' && answered.trim() !== asked.trim())
    throw new LiveError('WrongCompetition', `the answer to ${what} is about another class`, source);
}

export interface SourceOptions extends LiveHttpOptions {
  /** The API's base URL, from the operator's configuration only. */
  baseUrl: string;
}

/** The REST API (`api.orienteering.services`). */
export class RestSource implements LiveSource {
  readonly kind = 'rest' as const;
  readonly #http: LiveHttp;
  readonly #base: string;

  constructor(options: SourceOptions) {
    this.#http = new LiveHttp('rest', options);
    this.#base = options.baseUrl.replace(/\/+$/, '');
  }

  #url(path: string, query: Record<string, string> = {}): URL {
    const search = queryString(query);
    return new URL(`${this.#base}${path}${search ? `?${search}` : ''}`);
  }

  async #get(path: string, query: Record<string, string>, token: string | null | undefined) {
    const etag = tokenFor('rest', token);
    const response = await this.#http.get(this.#url(path, query), etag === null ? {} : { 'if-none-match': etag });
    return response;
  }

  async competitionsOn(date: string): Promise<LiveCompetition[]> {
    const what = '/competitions';
    const response = await this.#get('/competitions', { date }, null);
    if (response.status !== 200) throw statusError(response.status, what, 'rest');
    return listOf(parseLiveJson(response.body, what, 'rest'), 'competitions')
      .map((item) => ListItem.safeParse(item))
      .flatMap((item) => (item.success ? [competitionOf(item.data)] : []))
      .filter((c): c is LiveCompetition => c !== null && c.date === date);
  }

  async competition(id: number): Promise<LiveCompetition> {
    const what = `/competitions/${id}`;
    const response = await this.#get(`/competitions/${id}`, {}, null);
    if (response.status !== 200) throw statusError(response.status, what, 'rest');
    const item = LooseObject.safeParse(parseLiveJson(response.body, what, 'rest'));
    const competition = item.success ? competitionOf(item.data) : null;
    if (competition === null) throw invalid(what, 'rest', 'is not a competition');
    if (competition.id !== id)
      throw new LiveError('WrongCompetition', `the answer to ${what} is about another competition`, 'rest');
    return competition;
  }

  async classes(id: number, token?: string | null): Promise<Conditional<string[]>> {
    const what = `/competitions/${id}/classes`;
    const response = await this.#get(`/competitions/${id}/classes`, {}, token);
    if (response.status === 304) return { kind: 'notModified', source: 'rest' };
    if (response.status !== 200) throw statusError(response.status, what, 'rest');
    const names = classNamesIn(parseLiveJson(response.body, what, 'rest'));
    return { kind: 'data', source: 'rest', token: tagged('rest', response.etag), data: names };
  }

  async classResults(id: number, className: string, token?: string | null): Promise<Conditional<LiveClassResults>> {
    const what = `/competitions/${id}/classresults`;
    // The query form: the path form answers 404 for a class with `/` in its name.
    const response = await this.#get(`/competitions/${id}/classresults`, { class: className }, token);
    if (response.status === 304) return { kind: 'notModified', source: 'rest' };
    if (response.status !== 200) throw statusError(response.status, what, 'rest');
    const json = LooseObject.safeParse(parseLiveJson(response.body, what, 'rest'));
    if (!json.success) throw invalid(what, 'rest', 'is not a class result');
    checkClassName(className, json.data.className, what, 'rest');
    const data = classResultsOf(className, controlsFrom(json.data.splitControls), json.data.results);
    return { kind: 'data', source: 'rest', token: tagged('rest', response.etag), data };
  }

  async overview(id: number, token?: string | null): Promise<Conditional<LiveOverview>> {
    const what = `/competitions/${id}/export`;
    const response = await this.#get(`/competitions/${id}/export`, {}, token);
    if (response.status === 304) return { kind: 'notModified', source: 'rest' };
    if (response.status !== 200) throw statusError(response.status, what, 'rest');
    const json = LooseObject.safeParse(parseLiveJson(response.body, what, 'rest'));
    if (!json.success) throw invalid(what, 'rest', 'is not an export');
    const eventId = integer(json.data.eventid);
    if (eventId !== null && eventId > 0 && eventId !== id)
      throw new LiveError('WrongCompetition', `the answer to ${what} is about another competition`, 'rest');
    return { kind: 'data', source: 'rest', token: tagged('rest', response.etag), data: overviewOf(json.data) };
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}

/** The export's classes and runners, and per class the newest change of its rows or punches. */
function overviewOf(json: Readonly<Record<string, unknown>>): LiveOverview {
  const classes = listOf(json, 'classes').flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const c = item as Record<string, unknown>;
    const name = classNameOf(c.name);
    const leg = integer(c.relayLeg);
    const relayClassName = classNameOf(c.relayClassName);
    return name === ''
      ? []
      : [{ name, relayLeg: leg !== null && leg > 0 ? leg : null, relayClassName: relayClassName || null }];
  });
  const classOfRunner = new Map<number, string>();
  const runners = listOf(json, 'runners').flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const r = item as Record<string, unknown>;
    const name = cleanText(r.name);
    const className = classNameOf(r.class);
    const id = integer(r.id);
    if (name === '' || className === '') return [];
    if (id !== null) classOfRunner.set(id, className);
    return [{ name, club: cleanText(r.club), className }];
  });
  const classChangedAt: Record<string, number> = {};
  for (const item of listOf(json, 'results')) {
    if (typeof item !== 'object' || item === null) continue;
    const r = item as Record<string, unknown>;
    const id = integer(r.runnerId);
    const changed = integer(r.changed);
    const className = id === null ? undefined : classOfRunner.get(id);
    if (className === undefined || changed === null) continue;
    classChangedAt[className] = Math.max(classChangedAt[className] ?? 0, changed);
  }
  return LiveOverview.parse({ classes, runners, classChangedAt });
}

function statusError(status: number, what: string, source: LiveSourceKind): LiveError {
  if (status === 404)
    return new LiveError('NotFound', `${what} is not known to the live-results service (HTTP 404)`, source);
  if (status === 400) return new LiveError('Refused', `the live-results service refused ${what} (HTTP 400)`, source);
  if (status === 304) return invalid(what, source, 'is a 304 to an unconditional request');
  return invalid(what, source, `has HTTP status ${status}`);
}

/** LiveResultat's older `api.php` (or LiveRes's, which has the same methods and its own ids). */
export class LegacySource implements LiveSource {
  readonly kind = 'legacy' as const;
  readonly #http: LiveHttp;
  readonly #base: string;

  constructor(options: SourceOptions) {
    this.#http = new LiveHttp('legacy', options);
    this.#base = options.baseUrl;
  }

  async #call(method: string, params: Record<string, string>): Promise<Record<string, unknown>> {
    const url = new URL(this.#base);
    url.search = queryString({ method, ...params });
    const what = `api.php ${method}`;
    const response = await this.#http.get(url);
    if (response.status === 400)
      throw new LiveError('Refused', `the live-results service refused ${what} (HTTP 400)`, 'legacy');
    if (response.status !== 200) throw statusError(response.status, what, 'legacy');
    const json = LooseObject.safeParse(parseLiveJson(response.body, what, 'legacy'));
    if (!json.success) throw invalid(what, 'legacy', 'is not a JSON object');
    if (json.data.status === 'ERR')
      throw new LiveError('Refused', `the live-results service refused ${what}`, 'legacy');
    return json.data;
  }

  async competitionsOn(date: string): Promise<LiveCompetition[]> {
    // api.php lists every public competition: the day's are picked here.
    const json = await this.#call('getcompetitions', {});
    return listOf(json, 'competitions')
      .flatMap((item) =>
        typeof item === 'object' && item !== null ? [competitionOf(item as Record<string, unknown>)] : [],
      )
      .filter((c): c is LiveCompetition => c !== null && c.date === date);
  }

  async competition(id: number): Promise<LiveCompetition> {
    const what = 'api.php getcompetitioninfo';
    const json = await this.#call('getcompetitioninfo', { comp: String(id) });
    // An unknown id is answered with the id alone.
    if (json.name === undefined)
      throw new LiveError('NotFound', `competition ${id} is not known to the live-results service`, 'legacy');
    const competition = competitionOf(json);
    if (competition === null) throw invalid(what, 'legacy', 'is not a competition');
    if (competition.id !== id)
      throw new LiveError('WrongCompetition', `the answer to ${what} is about another competition`, 'legacy');
    return competition;
  }

  async classes(id: number, token?: string | null): Promise<Conditional<string[]>> {
    const hash = tokenFor('legacy', token);
    const json = await this.#call('getclasses', { comp: String(id), ...(hash === null ? {} : { last_hash: hash }) });
    if (json.status === 'NOT MODIFIED') return { kind: 'notModified', source: 'legacy' };
    return { kind: 'data', source: 'legacy', token: tagged('legacy', hashOf(json)), data: classNamesIn(json) };
  }

  async classResults(id: number, className: string, token?: string | null): Promise<Conditional<LiveClassResults>> {
    const hash = tokenFor('legacy', token);
    const json = await this.#call('getclassresults', {
      comp: String(id),
      class: className,
      unformattedTimes: 'true',
      ...(hash === null ? {} : { last_hash: hash }),
    });
    if (json.status === 'NOT MODIFIED') return { kind: 'notModified', source: 'legacy' };
    checkClassName(className, json.className, 'api.php getclassresults', 'legacy');
    const data = classResultsOf(className, controlsFrom(json.splitcontrols), json.results);
    return { kind: 'data', source: 'legacy', token: tagged('legacy', hashOf(json)), data };
  }

  /** api.php has no export. */
  async overview(): Promise<null> {
    return null;
  }

  close(): Promise<void> {
    return this.#http.close();
  }
}

function hashOf(json: Readonly<Record<string, unknown>>): string | null {
  return typeof json.hash === 'string' && /^[0-9a-zA-Z]{1,128}$/.test(json.hash) ? json.hash : null;
}
