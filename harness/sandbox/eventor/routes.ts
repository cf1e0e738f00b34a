/**
 * The operations of Eventor's API (docs/eventor.md#operations) except entries, starts and results
 * (lists.ts): routing, parameters, own-organisation rules (docs/eventor.md#own-organisation-rules)
 * and the native replies.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Card, PreselectedClass, PunchingUnitType } from '../../../src/eventor/model.js';
import { toInstant } from '../../../src/time/zones.js';
import type { Reply, RequestContext } from './context.js';
import {
  errorReply,
  escapeHtml,
  eventById,
  forbidden,
  HttpError,
  htmlReply,
  notFound,
  requireOwn,
  xmlReply,
} from './context.js';
import type { SandboxEvent } from './dataset.js';
import {
  competitorCount,
  entries,
  resultsEvent,
  resultsEventIof,
  resultsOrganisation,
  resultsPerson,
  startsEvent,
  startsEventIof,
  startsOrganisation,
  startsPerson,
} from './lists.js';
import {
  activityElement,
  competitorElement,
  documentElement,
  entryFeeElement,
  eventClassElement,
  eventElement,
  openDocument,
  organisationElement,
  personElement,
  singleDocument,
} from './native-xml.js';
import { BadRequest, checkId } from './params.js';

type Handler = (ctx: RequestContext, params: string[]) => Reply | Promise<Reply>;

interface Route {
  method: 'GET' | 'PUT';
  pattern: string[];
  auth: boolean;
  handler: Handler;
}

/** Patterns in lower case; `*` is a path parameter. */
const ROUTES: Route[] = [
  { method: 'GET', pattern: ['events'], auth: true, handler: events },
  { method: 'GET', pattern: ['events', 'documents'], auth: true, handler: documents },
  { method: 'GET', pattern: ['event', '*'], auth: true, handler: event },
  { method: 'GET', pattern: ['eventclasses'], auth: true, handler: eventClasses },
  { method: 'GET', pattern: ['entryfees', 'events', '*'], auth: true, handler: entryFees },
  { method: 'GET', pattern: ['organisation', 'apikey'], auth: true, handler: organisationApiKey },
  { method: 'GET', pattern: ['organisations'], auth: true, handler: organisations },
  { method: 'GET', pattern: ['organisation', '*'], auth: true, handler: organisation },
  { method: 'GET', pattern: ['persons', 'organisations', '*'], auth: true, handler: persons },
  { method: 'GET', pattern: ['competitors'], auth: true, handler: competitors },
  { method: 'GET', pattern: ['competitor', '*'], auth: true, handler: competitor },
  { method: 'PUT', pattern: ['competitor'], auth: true, handler: putCompetitor },
  { method: 'GET', pattern: ['externalloginurl'], auth: true, handler: externalLoginUrl },
  // OriGo calls authenticatePerson without an ApiKey (docs/eventor.md#authentication-and-headers).
  { method: 'GET', pattern: ['authenticateperson'], auth: false, handler: authenticatePerson },
  { method: 'GET', pattern: ['entries'], auth: true, handler: entries },
  { method: 'GET', pattern: ['competitorcount'], auth: true, handler: competitorCount },
  { method: 'GET', pattern: ['starts', 'event'], auth: true, handler: startsEvent },
  { method: 'GET', pattern: ['starts', 'event', 'iofxml'], auth: true, handler: startsEventIof },
  { method: 'GET', pattern: ['starts', 'person'], auth: true, handler: startsPerson },
  { method: 'GET', pattern: ['starts', 'organisation'], auth: true, handler: startsOrganisation },
  { method: 'GET', pattern: ['results', 'event'], auth: true, handler: resultsEvent },
  { method: 'GET', pattern: ['results', 'event', 'iofxml'], auth: true, handler: resultsEventIof },
  { method: 'GET', pattern: ['results', 'person'], auth: true, handler: resultsPerson },
  { method: 'GET', pattern: ['results', 'organisation'], auth: true, handler: resultsOrganisation },
  { method: 'GET', pattern: ['activities'], auth: true, handler: activities },
  { method: 'GET', pattern: ['activity'], auth: true, handler: activity },
];

export interface RouteMatch {
  route: Route;
  params: string[];
}

/** Finds the route for the segments after `/api`; `methodMismatch` when only the method is wrong. */
export function matchRoute(method: string, segments: string[]): RouteMatch | 'methodMismatch' | null {
  const lower = segments.map((s) => s.toLowerCase());
  let mismatch = false;
  for (const route of ROUTES) {
    if (route.pattern.length !== lower.length) continue;
    const params: string[] = [];
    let ok = true;
    for (let i = 0; i < lower.length; i++) {
      const p = route.pattern[i]!;
      if (p === '*') params.push(decodeURIComponent(segments[i]!));
      else if (p !== lower[i]) {
        ok = false;
        break;
      }
    }
    // `/organisation/apiKey` must not be read as `/organisation/{id}`: exact routes come first.
    if (!ok) continue;
    if (route.method !== method) {
      mismatch = true;
      continue;
    }
    return { route, params };
  }
  return mismatch ? 'methodMismatch' : null;
}

// --- events ----------------------------------------------------------------------------------

/** Events matching the common filters of /events and /events/documents. */
export function filterEvents(
  ctx: RequestContext,
  options: { modifyDates: boolean; classifications: boolean },
): SandboxEvent[] {
  const q = ctx.query;
  const from = q.date('fromDate', 'lower');
  const to = q.date('toDate', 'upper');
  const fromModify = options.modifyDates ? q.date('fromModifyDate', 'lower') : null;
  const toModify = options.modifyDates ? q.date('toModifyDate', 'upper') : null;
  const eventIds = q.ids('eventIds');
  const orgIds = q.ids('organisationIds');
  const classificationIds = options.classifications ? q.ids('classificationIds') : undefined;
  // A district (or the federation) id selects its clubs' events too (docs/eventor.md#request-parameters).
  const organisers = orgIds ? new Set(orgIds.flatMap((id) => ctx.dataset.expandOrganisation(id))) : null;
  const ids = eventIds ? new Set(eventIds) : null;
  const classes = classificationIds ? new Set(classificationIds) : null;
  return ctx.dataset.events
    .filter(({ event: e }) => {
      if (ids && !ids.has(e.id)) return false;
      if (classes && !classes.has(e.classificationId ?? '')) return false;
      if (organisers && !e.organisers.some((o) => o.id !== null && organisers.has(o.id))) return false;
      const start = e.start ? Date.parse(e.start) : null;
      const finish = e.finish ? Date.parse(e.finish) : start;
      // An event is in the range when it overlaps it.
      if (start !== null && (start > to || (finish ?? start) < from)) return false;
      if (fromModify !== null && toModify !== null) {
        const m = e.modifiedAt ? Date.parse(e.modifiedAt) : null;
        if (m === null || m < fromModify || m > toModify) return false;
      }
      return true;
    })
    .sort((a, b) => (a.event.start ?? '').localeCompare(b.event.start ?? '') || Number(a.id) - Number(b.id));
}

function events(ctx: RequestContext): Reply {
  const list = filterEvents(ctx, { modifyDates: true, classifications: true });
  const entryBreaks = ctx.query.flag('includeEntryBreaks');
  const attributes = ctx.query.flag('includeAttributes');
  const out = openDocument('EventList');
  for (const ev of list) eventElement(out, ev.event, ctx.native, { fullOrganisers: false, entryBreaks, attributes });
  out.close();
  return xmlReply(out);
}

function documents(ctx: RequestContext): Reply {
  const list = filterEvents(ctx, { modifyDates: false, classifications: false });
  const out = openDocument('DocumentList');
  for (const ev of list) for (const d of ev.documents) documentElement(out, d, ctx.native);
  out.close();
  return xmlReply(out);
}

function event(ctx: RequestContext, [id]: string[]): Reply {
  const ev = eventById(ctx, id);
  const out = singleDocument();
  // Entry breaks always (all four /event samples have them), attributes too.
  eventElement(out, ev.event, ctx.native, { fullOrganisers: true, entryBreaks: true, attributes: true });
  return xmlReply(out);
}

function eventClasses(ctx: RequestContext): Reply {
  const ev = eventById(ctx, ctx.query.str('eventId'));
  const fees = ctx.query.flag('includeEntryFees');
  const out = openDocument('EventClassList');
  for (const c of ctx.dataset.details(ev).classes) eventClassElement(out, c, { entryFees: fees });
  out.close();
  return xmlReply(out);
}

function entryFees(ctx: RequestContext, [id]: string[]): Reply {
  const ev = eventById(ctx, id);
  const out = openDocument('EntryFeeList');
  for (const f of ev.fees) entryFeeElement(out, f, ctx.native);
  out.close();
  return xmlReply(out);
}

// --- organisations ---------------------------------------------------------------------------

function organisationDocument(ctx: RequestContext, id: string, contact: boolean): Reply {
  const org = ctx.dataset.organisation(id);
  if (!org) throw notFound(`Organisation ${id}`);
  const out = singleDocument();
  organisationElement(out, org, ctx.native, { contact });
  return xmlReply(out);
}

function organisationApiKey(ctx: RequestContext): Reply {
  return organisationDocument(ctx, ctx.club!.id, true);
}

function organisation(ctx: RequestContext, [id]: string[]): Reply {
  return organisationDocument(ctx, checkId(id!, 'id'), true);
}

function organisations(ctx: RequestContext): Reply {
  const contact = ctx.query.flag('includeProperties');
  const out = openDocument('OrganisationList');
  for (const org of ctx.dataset.organisations) organisationElement(out, org, ctx.native, { contact });
  out.close();
  return xmlReply(out);
}

// --- persons and competitors -----------------------------------------------------------------

function persons(ctx: RequestContext, [id]: string[]): Reply {
  const orgId = requireOwn(ctx, checkId(id!, 'organisationId'));
  const contact = ctx.query.flag('includeContactDetails');
  const identifiers = ctx.query.flag('includePersonIdentifiers');
  const out = openDocument('PersonList');
  for (const m of ctx.dataset.club(orgId)!.members) personElement(out, m.person, ctx.native, { contact, identifiers });
  out.close();
  return xmlReply(out);
}

function competitors(ctx: RequestContext): Reply {
  const orgId = requireOwn(ctx, ctx.query.id('organisationId'));
  const out = openDocument('CompetitorList');
  for (const m of ctx.dataset.club(orgId)!.members) if (m.hasSettings) competitorElement(out, m.competitor, ctx.native);
  out.close();
  return xmlReply(out);
}

function competitorDocument(ctx: RequestContext, c: Parameters<typeof competitorElement>[1]): Reply {
  const out = singleDocument();
  competitorElement(out, c, ctx.native);
  return xmlReply(out);
}

function competitor(ctx: RequestContext, [id]: string[]): Reply {
  const m = ctx.dataset.personByCompetitor(checkId(id!, 'competitorId'));
  // A competitor outside the key's club is as forbidden as an unknown one (docs/eventor.md#own-organisation-rules).
  if (!m || m.clubId !== ctx.club!.id) throw forbidden();
  return competitorDocument(ctx, m.competitor);
}

const PUNCHING = new Set<string>(['SI', 'Emit', 'emiTag', 'manual', 'other', 'ToePunch', 'Huichang']);
const competitorParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseTagValue: false,
  removeNSPrefix: true,
  trimValues: true,
  isArray: (name) => name === 'CCard' || name === 'PreSelectedClass',
});

type XmlObj = Record<string, unknown>;
function textOf(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (v && typeof v === 'object' && '#text' in v) return textOf((v as XmlObj)['#text']);
  return null;
}

/**
 * PUT /api/competitor: a native `<Competitor>` body (docs/eventor.md#competitor-settings-read-modify-write);
 * saves cards and preselected classes.
 */
function putCompetitor(ctx: RequestContext): Reply {
  if (ctx.body.trim() === '' || XMLValidator.validate(ctx.body) !== true)
    throw new BadRequest('The request body is not well-formed XML.');
  const doc = competitorParser.parse(ctx.body) as XmlObj;
  const root = doc['Competitor'];
  if (!root || typeof root !== 'object') throw new BadRequest('The request body must be a Competitor element.');
  const c = root as XmlObj;
  const competitorId = textOf(c['CompetitorId']);
  const personId = textOf(c['PersonId']) ?? textOf((c['Person'] as XmlObj | undefined)?.['PersonId']);
  if (competitorId === null && personId === null)
    throw new BadRequest('The Competitor element needs a CompetitorId or a PersonId.');
  const member = competitorId !== null ? ctx.dataset.personByCompetitor(competitorId) : ctx.dataset.person(personId!);
  if (!member || member.clubId !== ctx.club!.id) throw forbidden();
  if (personId !== null && member.person.id !== personId)
    throw new BadRequest('CompetitorId and PersonId do not belong together.');
  const cards: Card[] = [];
  for (const card of (c['CCard'] as XmlObj[] | undefined) ?? []) {
    const number = textOf(card['CCardId']);
    if (number === null) throw new BadRequest('A CCard needs a CCardId.');
    const type = (card['PunchingUnitType'] as XmlObj | undefined)?.['@_value'];
    cards.push({ number, type: typeof type === 'string' && PUNCHING.has(type) ? (type as PunchingUnitType) : null });
  }
  const preselected: PreselectedClass[] = ((c['PreSelectedClass'] as XmlObj[] | undefined) ?? []).map((p, i) => {
    const seq = Number(p['@_sequence']);
    return {
      sequence: Number.isInteger(seq) ? seq : i + 1,
      baseClassId: textOf(p['BaseClassId']),
      classShortName: textOf(p['ClassShortName']),
    };
  });
  const saved = member.competitor;
  saved.cards = cards;
  saved.preselectedClasses = preselected;
  saved.disciplineId = textOf(c['DisciplineId']) ?? saved.disciplineId;
  saved.modifiedAt = toInstant(ctx.now().getTime());
  member.hasSettings = true;
  return competitorDocument(ctx, saved);
}

function externalLoginUrl(ctx: RequestContext): Reply {
  const orgId = requireOwn(ctx, ctx.query.id('organisationId'));
  const personId = ctx.query.id('personId');
  if (personId === undefined) throw new BadRequest("The parameter 'personId' is required.");
  const m = ctx.dataset.person(personId);
  if (!m || m.clubId !== orgId) throw forbidden();
  const token = ctx.logins.issue(personId, `${m.person.name.given} ${m.person.name.family}`);
  const out = singleDocument();
  out.leaf('ExternalLoginUrl', `${ctx.origin}/login/${token}`);
  return xmlReply(out);
}

function header(ctx: RequestContext, name: string): string | undefined {
  const v = ctx.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function authenticatePerson(ctx: RequestContext): Reply {
  // Headers per the official docs; query parameters too, as one client sends them
  // (docs/eventor.md#authentication-and-headers).
  const username = header(ctx, 'Username') ?? ctx.query.str('Username');
  const password = header(ctx, 'Password') ?? ctx.query.str('Password');
  const m = username !== undefined && password !== undefined ? ctx.dataset.authenticate(username, password) : undefined;
  if (!m)
    throw new HttpError(
      401,
      'You do not have permission to view this directory or page using the credentials that you supplied.',
    );
  const out = singleDocument();
  personElement(out, m.person, ctx.native, {});
  return xmlReply(out);
}

/** GET /login/<token> (outside /api): the page behind an external login link. */
export function loginPage(ctx: Pick<RequestContext, 'logins'>, token: string): Reply {
  const outcome = ctx.logins.redeem(token);
  if (outcome.ok) return htmlReply(200, 'Eventor (sandbox)', `Logged in as ${escapeHtml(outcome.displayName)}.`);
  if (outcome.reason === 'unknown') return errorReply(403, 'This login link is not valid.');
  return htmlReply(
    410,
    '410 - Gone',
    outcome.reason === 'used' ? 'This login link has already been used.' : 'This login link has expired.',
  );
}

// --- activities ------------------------------------------------------------------------------

function activities(ctx: RequestContext): Reply {
  const orgId = requireOwn(ctx, ctx.query.id('organisationId'));
  const from = ctx.query.str('from');
  const to = ctx.query.str('to');
  if (from === undefined || to === undefined) throw new BadRequest("The parameters 'from' and 'to' are required.");
  const fromMs = ctx.query.date('from', 'lower');
  let toMs = ctx.query.date('to', 'upper');
  // `to` given as a bare date means the whole day (`yyyy-mm-dd 23:59:59`, docs/eventor.md#request-parameters).
  if (/^\d{4}-\d{2}-\d{2}$/.test(to)) toMs += 86_399_000;
  const registrations = ctx.query.flag('includeRegistrations');
  const out = openDocument('ActivityList');
  for (const a of ctx.dataset.activities) {
    if (a.organisationId !== orgId) continue;
    const t = a.startTime ? Date.parse(a.startTime) : null;
    if (t === null || t < fromMs || t > toMs) continue;
    activityElement(out, a, ctx.native, { registrations });
  }
  out.close();
  return xmlReply(out);
}

function activity(ctx: RequestContext): Reply {
  const orgId = requireOwn(ctx, ctx.query.id('organisationId'));
  const id = ctx.query.id('id');
  if (id === undefined) throw new BadRequest("The parameter 'id' is required.");
  const a = ctx.dataset.activities.find((x) => x.id === id && x.organisationId === orgId);
  if (!a) throw notFound(`Activity ${id}`);
  const out = singleDocument();
  activityElement(out, a, ctx.native, { registrations: ctx.query.flag('includeRegistrations') });
  return xmlReply(out);
}
