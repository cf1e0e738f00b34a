/**
 * Entries, competitor counts, start lists and result lists (docs/eventor.md#operations): filtering the
 * lazily generated domain lists per request, then serialising (native) or handing to the
 * IOF XML 3.0 writer (iof-writer.ts).
 */
import type {
  ClassResult,
  ClassStart,
  Entry,
  OrganisationRef,
  PersonResult,
  PersonStart,
  RaceResult,
  ResultList,
  StartList,
  TeamResult,
  TeamStart,
} from '../../../src/eventor/model.js';
import { toInstant } from '../../../src/time/zones.js';
import type { Reply, RequestContext } from './context.js';
import { eventById, forbidden, HttpError, XML_TYPE, xmlReply } from './context.js';
import { SANDBOX_TIME_ZONE, type SandboxEvent } from './dataset.js';
import { writeIofResultList, writeIofStartList } from './iof-writer.js';
import {
  competitorCountElement,
  entryElement,
  openDocument,
  resultListAttrs,
  resultListContent,
  startListContent,
} from './native-xml.js';
import { BadRequest, UPPER } from './params.js';

const eventRefOf = (ev: SandboxEvent) => ({ id: ev.event.id, name: ev.event.name, event: ev.event });

// --- entries ---------------------------------------------------------------------------------

export function entries(ctx: RequestContext): Reply {
  const q = ctx.query;
  const orgIds = q.ids('organisationIds');
  const orgs = orgIds ? new Set(orgIds.flatMap((id) => ctx.dataset.expandOrganisation(id))) : null;
  const eventIds = q.ids('eventIds');
  const classIds = q.ids('eventClassIds');
  const classSet = classIds ? new Set(classIds) : null;
  const [fromEvent, toEvent] = [q.date('fromEventDate', 'lower'), q.date('toEventDate', 'upper')];
  const [fromEntry, toEntry] = [q.date('fromEntryDate', 'lower'), q.date('toEntryDate', 'upper')];
  const [fromModify, toModify] = [q.date('fromModifyDate', 'lower'), q.date('toModifyDate', 'upper')];
  const flags = {
    person: q.flag('includePersonElement'),
    organisation: q.flag('includeOrganisationElement'),
    event: q.flag('includeEventElement'),
    fees: q.flag('includeEntryFees'),
  };
  const idSet = eventIds ? new Set(eventIds) : null;
  const out = openDocument('EntryList');
  for (const ev of ctx.dataset.events) {
    if (idSet && !idSet.has(ev.id)) continue;
    const start = ev.event.start ? Date.parse(ev.event.start) : null;
    if (start !== null && (start < fromEvent || start > toEvent)) continue;
    for (const entry of ctx.dataset.entriesAt(ev)) {
      // organisationIds is the ENTRANT's club, not the organiser (docs/eventor.md#entries-and-entry-counts).
      if (orgs && !entrantOrgs(entry).some((id) => orgs.has(id))) continue;
      if (classSet && !entry.classIds.some((c) => classSet.has(c))) continue;
      const entered = entry.entryDate ? Date.parse(entry.entryDate) : null;
      if (entered !== null && (entered < fromEntry || entered > toEntry)) continue;
      const modified = entry.modifiedAt ? Date.parse(entry.modifiedAt) : null;
      if (modified !== null && (modified < fromModify || modified > toModify)) continue;
      entryElement(out, projectEntry(entry, ev, flags), ctx.native, {
        fullOrganisation: flags.organisation,
        entryFees: flags.fees,
      });
    }
  }
  out.close();
  return xmlReply(out);
}

function entrantOrgs(entry: Entry): string[] {
  if (entry.competitor) return entry.competitor.organisation?.id ? [entry.competitor.organisation.id] : [];
  return (entry.team?.organisations ?? []).map((o) => o.id).filter((id): id is string => id !== null);
}

const bareOrg = (ref: OrganisationRef): OrganisationRef => ({
  id: ref.id,
  name: null,
  shortName: null,
  countryCode: null,
});

/** The entry as the flags ask for it: person, organisation and event in full or as ids. */
export function projectEntry(
  entry: Entry,
  ev: SandboxEvent,
  flags: { person: boolean; organisation: boolean; event: boolean; fees: boolean },
): Entry {
  return {
    ...entry,
    event: flags.event ? eventRefOf(ev) : { id: ev.id, name: null, event: null },
    competitor: entry.competitor && {
      ...entry.competitor,
      person: flags.person ? entry.competitor.person : null,
      organisation:
        entry.competitor.organisation &&
        (flags.organisation ? entry.competitor.organisation : bareOrg(entry.competitor.organisation)),
    },
    team: entry.team && {
      ...entry.team,
      organisations: entry.team.organisations.map((o) => (flags.organisation ? o : bareOrg(o))),
    },
    entryFeeIds: flags.fees ? entry.entryFeeIds : [],
  };
}

export function competitorCount(ctx: RequestContext): Reply {
  const orgIds = ctx.query.ids('organisationIds');
  if (!orgIds) throw new BadRequest("The parameter 'organisationIds' is required.");
  const orgs = new Set(orgIds.flatMap((id) => ctx.dataset.expandOrganisation(id)));
  const eventIds = ctx.query.ids('eventIds');
  const personIds = ctx.query.ids('personIds');
  const persons = personIds ? new Set(personIds) : null;
  const out = openDocument('CompetitorCountList');
  const list = eventIds
    ? eventIds.map((id) => ctx.dataset.event(id)).filter((e): e is SandboxEvent => !!e)
    : ctx.dataset.events;
  for (const ev of list) {
    const details = ctx.dataset.details(ev);
    let n = 0;
    for (const entry of ctx.dataset.entriesAt(ev)) {
      if (!entrantOrgs(entry).some((id) => orgs.has(id))) continue;
      const pid = entry.competitor?.personId ?? null;
      if (persons && (pid === null || !persons.has(pid))) continue;
      n++;
    }
    let starts = 0;
    for (const cr of details.resultList?.classes ?? []) {
      for (const p of cr.persons) {
        if (
          p.organisation?.id &&
          orgs.has(p.organisation.id) &&
          (!persons || persons.has(p.person?.id ?? '')) &&
          p.results[0]?.status !== 'DidNotStart'
        )
          starts++;
      }
      for (const t of cr.teams) if (t.organisations.some((o) => o.id !== null && orgs.has(o.id)) && !persons) starts++;
    }
    // Without eventIds, only events where the organisations have entries.
    if (!eventIds && n === 0) continue;
    competitorCountElement(out, { eventId: ev.id, raceId: null, entries: n, starts, classes: [], organisations: [] });
  }
  out.close();
  return xmlReply(out);
}

// --- starts ----------------------------------------------------------------------------------

function emptyStartList(ev: SandboxEvent): StartList {
  return { event: eventRefOf(ev), classes: [] };
}

/** The event's start list (empty before the draw), optionally limited to some persons/clubs. */
function startListOf(ctx: RequestContext, ev: SandboxEvent, keep?: (p: PersonStart | TeamStart) => boolean): StartList {
  const list = ctx.dataset.details(ev).startList;
  if (!list) return emptyStartList(ev);
  const classes: ClassStart[] = [];
  for (const cs of list.classes) {
    const persons = keep ? cs.persons.filter(keep) : cs.persons;
    const teams = keep ? cs.teams.filter(keep) : cs.teams;
    if (keep && persons.length === 0 && teams.length === 0) continue;
    classes.push({ ...cs, persons, teams });
  }
  return { event: eventRefOf(ev), classes };
}

function startListReply(ctx: RequestContext, ev: SandboxEvent, list: StartList): Reply {
  const out = openDocument('StartList');
  startListContent(out, list, ctx.native, ev.event.races.length > 1);
  out.close();
  return xmlReply(out);
}

export function startsEvent(ctx: RequestContext): Reply {
  const ev = eventById(ctx, ctx.query.str('eventId'));
  return startListReply(ctx, ev, startListOf(ctx, ev));
}

/** organisationIds must be the caller's own organisation (docs/eventor.md#own-organisation-rules). */
function ownOrganisations(ctx: RequestContext): Set<string> {
  const ids = ctx.query.ids('organisationIds');
  if (!ids) throw new BadRequest("The parameter 'organisationIds' is required.");
  if (ids.some((id) => id !== ctx.club!.id)) throw forbidden();
  return new Set(ids);
}

const inOrgs =
  (orgs: Set<string>) =>
  (p: PersonStart | TeamStart | PersonResult | TeamResult): boolean => {
    if ('organisation' in p) return p.organisation?.id ? orgs.has(p.organisation.id) : false;
    return (
      p.organisations.some((o) => o.id !== null && orgs.has(o.id)) ||
      p.members.some((m) => (m.organisation?.id ? orgs.has(m.organisation.id) : false))
    );
  };

const hasPerson =
  (personId: string) =>
  (p: PersonStart | TeamStart | PersonResult | TeamResult): boolean =>
    'members' in p ? p.members.some((m) => m.person?.id === personId) : p.person?.id === personId;

export function startsOrganisation(ctx: RequestContext): Reply {
  const orgs = ownOrganisations(ctx);
  const ev = eventById(ctx, ctx.query.str('eventId'));
  return startListReply(ctx, ev, startListOf(ctx, ev, inOrgs(orgs)));
}

function eventsInRange(ctx: RequestContext): SandboxEvent[] {
  const eventIds = ctx.query.ids('eventIds');
  const ids = eventIds ? new Set(eventIds) : null;
  const from = ctx.query.date('fromDate', 'lower');
  const to = ctx.query.date('toDate', 'upper');
  return ctx.dataset.events
    .filter((ev) => {
      if (ids && !ids.has(ev.id)) return false;
      const start = ev.event.start ? Date.parse(ev.event.start) : null;
      return start === null || (start >= from && start <= to);
    })
    .sort((a, b) => (a.event.start ?? '').localeCompare(b.event.start ?? ''));
}

/** Person lists span many events; the 20,000-runner event is only generated when named or in range. */
function personEvents(ctx: RequestContext): SandboxEvent[] {
  const list = eventsInRange(ctx);
  const named = ctx.query.ids('eventIds') !== undefined || ctx.query.date('toDate', 'upper') !== UPPER;
  return list.filter((ev) => ev.syntheticRunners === 0 || named || ev.materialized !== null);
}

export function startsPerson(ctx: RequestContext): Reply {
  const personId = ctx.query.id('personId');
  if (personId === undefined) throw new BadRequest("The parameter 'personId' is required.");
  const out = openDocument('StartListList');
  for (const ev of personEvents(ctx)) {
    const list = startListOf(ctx, ev, hasPerson(personId));
    if (list.classes.length === 0) continue;
    out.open('StartList');
    startListContent(out, list, ctx.native, ev.event.races.length > 1);
    out.close();
  }
  out.close();
  return xmlReply(out);
}

// --- results ---------------------------------------------------------------------------------

type Competing = PersonResult | TeamResult;

function bestPosition(p: Competing): number {
  if ('members' in p) return p.position ?? Number.POSITIVE_INFINITY;
  let best = Number.POSITIVE_INFINITY;
  for (const r of p.results) if (r.position !== null && r.position < best) best = r.position;
  return best;
}

/**
 * The event's results; `keep` limits them to some runners (a person, a club), and `top` adds the
 * first N of each class those runners are in; without `keep`, `top` limits every class to its
 * first N. Classes without kept runners are dropped.
 */
function resultListOf(
  ctx: RequestContext,
  ev: SandboxEvent,
  keep: ((p: Competing) => boolean) | null,
  top: number | undefined,
): ResultList | null {
  const list = ctx.dataset.details(ev).resultList;
  if (!list) return null;
  const inTop = (p: Competing): boolean => top !== undefined && bestPosition(p) <= top;
  const classes: ClassResult[] = [];
  for (const cr of list.classes) {
    if (keep === null) {
      classes.push(
        top === undefined ? cr : { ...cr, persons: cr.persons.filter(inTop), teams: cr.teams.filter(inTop) },
      );
      continue;
    }
    if (!cr.persons.some(keep) && !cr.teams.some(keep)) continue;
    const select = (p: Competing): boolean => keep(p) || inTop(p);
    classes.push({ ...cr, persons: cr.persons.filter(select), teams: cr.teams.filter(select) });
  }
  return { status: list.status, event: eventRefOf(ev), classes };
}

function top(ctx: RequestContext): number | undefined {
  const n = ctx.query.int('top');
  if (n !== undefined && n < 0) throw new BadRequest("The value of 'top' must not be negative.");
  return n;
}

function resultListReply(ctx: RequestContext, ev: SandboxEvent, list: ResultList): Reply {
  const out = openDocument('ResultList', resultListAttrs(list));
  resultListContent(out, list, ctx.native, {
    multiRace: ev.event.races.length > 1,
    splits: ctx.query.flag('includeSplitTimes'),
  });
  out.close();
  return xmlReply(out);
}

export function resultsEvent(ctx: RequestContext): Reply {
  const ev = eventById(ctx, ctx.query.str('eventId'));
  const list = resultListOf(ctx, ev, null, top(ctx)) ?? { status: 'complete', event: eventRefOf(ev), classes: [] };
  return resultListReply(ctx, ev, list);
}

export function resultsOrganisation(ctx: RequestContext): Reply {
  const orgs = ownOrganisations(ctx);
  const ev = eventById(ctx, ctx.query.str('eventId'));
  const list = resultListOf(ctx, ev, inOrgs(orgs), top(ctx)) ?? {
    status: 'complete',
    event: eventRefOf(ev),
    classes: [],
  };
  return resultListReply(ctx, ev, list);
}

/** Before the race: a `snapshot` list with the person's entry as `Inactive` (results-person-snapshot-inactive.xml). */
function snapshotFor(ctx: RequestContext, ev: SandboxEvent, personId: string): ResultList | null {
  const details = ctx.dataset.details(ev);
  const entry = ctx.dataset.entriesAt(ev).find((e) => e.competitor?.personId === personId);
  if (!entry?.competitor || ev.event.status === 'canceled') return null;
  const cls = details.classes.find((c) => c.id === entry.classIds[0]);
  if (!cls) return null;
  const start = details.startList?.classes
    .find((c) => c.class.id === cls.id)
    ?.persons.find((p) => p.person?.id === personId);
  const results: RaceResult[] = ev.event.races.map((race, i) => ({
    raceId: ev.event.races.length > 1 ? race.id : null,
    raceNumber: null,
    bibNumber: null,
    startTime: start?.starts[i]?.startTime ?? null,
    finishTime: null,
    time: null,
    timeBehind: null,
    position: null,
    status: 'Inactive',
    splits: [],
    overall: null,
    course: null,
    cards: entry.competitor!.cards.map((c) => ({ number: c.number, type: null })),
  }));
  return {
    status: 'snapshot',
    event: eventRefOf(ev),
    classes: [
      {
        class: { id: cls.id, name: cls.name, shortName: cls.shortName, resultListMode: 'Default' },
        numberOfEntries: cls.numberOfEntries,
        numberOfStarts: 0,
        courses: [],
        persons: [{ person: entry.competitor.person, organisation: entry.competitor.organisation, results }],
        teams: [],
      },
    ],
  };
}

export function resultsPerson(ctx: RequestContext): Reply {
  const personId = ctx.query.id('personId');
  if (personId === undefined) throw new BadRequest("The parameter 'personId' is required.");
  const n = top(ctx);
  const splits = ctx.query.flag('includeSplitTimes');
  const out = openDocument('ResultListList');
  for (const ev of personEvents(ctx)) {
    let list = resultListOf(ctx, ev, hasPerson(personId), n);
    if (list && list.classes.length === 0) list = null;
    if (!list && !ev.hasResults) list = snapshotFor(ctx, ev, personId);
    if (!list) continue;
    out.open('ResultList', resultListAttrs(list));
    resultListContent(out, list, ctx.native, { multiRace: ev.event.races.length > 1, splits });
    out.close();
  }
  out.close();
  return xmlReply(out);
}

// --- IOF XML 3.0 -----------------------------------------------------------------------------

function raceIndexes(ctx: RequestContext, ev: SandboxEvent): number[] {
  const raceId = ctx.query.id('eventRaceId');
  if (raceId === undefined) return ev.event.races.map((_, i) => i);
  const i = ev.event.races.findIndex((r) => r.id === raceId);
  if (i < 0) throw new HttpError(404, `Event race ${raceId} was not found.`);
  return [i];
}

function iofReply(body: string): Reply {
  return { status: 200, contentType: XML_TYPE, chunks: [body], xml: true };
}

/*
 * For the IOF writer, races are left as native lists name them (raceId on multi-race events,
 * nothing on single-race ones): the writer numbers them from the event's race order.
 */

export function startsEventIof(ctx: RequestContext): Reply {
  const ev = eventById(ctx, ctx.query.str('eventId'));
  const races = raceIndexes(ctx, ev);
  const base = startListOf(ctx, ev);
  const list: StartList = {
    ...base,
    classes: base.classes.map((cs) => ({
      ...cs,
      persons: cs.persons.map((p) => ({
        ...p,
        starts: races.filter((i) => p.starts[i] !== undefined).map((i) => p.starts[i]!),
      })),
    })),
  };
  return iofReply(writeIofStartList(list, { createTime: toInstant(ctx.now().getTime()), timeZone: SANDBOX_TIME_ZONE }));
}

export function resultsEventIof(ctx: RequestContext): Reply {
  const ev = eventById(ctx, ctx.query.str('eventId'));
  const races = raceIndexes(ctx, ev);
  const splits = ctx.query.flag('includeSplitTimes');
  const total = ctx.query.flag('totalResult') && ev.event.races.length > 1;
  const base = resultListOf(ctx, ev, null, undefined) ?? {
    status: 'complete' as const,
    event: eventRefOf(ev),
    classes: [],
  };
  const list: ResultList = {
    ...base,
    classes: base.classes.map((cr) => {
      const totals = total ? totalsOf(cr.persons) : null;
      return {
        ...cr,
        persons: cr.persons.map((p) => ({
          ...p,
          results: races
            .filter((i) => p.results[i] !== undefined)
            .map((i, k, all) => ({
              ...p.results[i]!,
              splits: splits ? p.results[i]!.splits : [],
              // totalResult: the standing over all races, on the last race of the list.
              overall: totals && k === all.length - 1 ? (totals.get(p) ?? null) : p.results[i]!.overall,
            })),
        })),
        teams: cr.teams.map((t) => ({
          ...t,
          members: t.members.map((m) => ({ ...m, result: { ...m.result, splits: splits ? m.result.splits : [] } })),
        })),
      };
    }),
  };
  return iofReply(
    writeIofResultList(list, { createTime: toInstant(ctx.now().getTime()), timeZone: SANDBOX_TIME_ZONE }),
  );
}

/** Total time over all races for runners OK in every race; positions and time behind among them. */
function totalsOf(persons: PersonResult[]): Map<PersonResult, NonNullable<RaceResult['overall']>> {
  const out = new Map<PersonResult, NonNullable<RaceResult['overall']>>();
  const ok: { p: PersonResult; time: number }[] = [];
  for (const p of persons) {
    const bad = p.results.find((r) => r.status !== 'OK' || r.time === null);
    if (bad) out.set(p, { time: null, timeBehind: null, position: null, status: bad.status });
    else ok.push({ p, time: p.results.reduce((s, r) => s + r.time!, 0) });
  }
  ok.sort((a, b) => a.time - b.time);
  ok.forEach((x, i) => {
    out.set(x.p, { time: x.time, timeBehind: x.time - ok[0]!.time, position: i + 1, status: 'OK' });
  });
  return out;
}
