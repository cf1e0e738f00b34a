/**
 * Sandbox domain objects -> native XML over HTTP -> the project's native parsers -> equal domain
 * objects. This pins the sandbox writer and the parsers (src/eventor/native) to each other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Event } from '../../src/eventor/model.js';
import {
  parseActivityList,
  parseCompetitorList,
  parseDocumentList,
  parseEntryFeeList,
  parseEntryList,
  parseEvent,
  parseEventClassList,
  parseEventList,
  parseOrganisation,
  parseOrganisationList,
  parsePersonList,
  parseResultList,
  parseResultListList,
  parseStartList,
} from '../../src/eventor/native/index.js';
import { projectEntry } from '../../harness/sandbox/eventor/lists.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';

let sb: SandboxEventor;

beforeAll(async () => {
  sb = await startSandboxEventor({ seed: 5, now: new Date('2026-03-20T09:30:00Z') });
});
afterAll(async () => {
  await sb?.close();
});

const zones = [
  ['Europe/Stockholm', {}],
  ['UTC', { TimeZone: 'UTC' }],
] as const;

async function body(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${sb.baseUrl}${path}`, { headers: { ApiKey: sb.apiKey, ...headers } });
  expect(res.status, path).toBe(200);
  return res.text();
}

const bareOrganisers = (e: Event): Event => ({
  ...e,
  organisers: e.organisers.map((o) => ({ id: o.id, name: null, shortName: null, countryCode: null })),
});

describe.each(zones)('round trip in %s', (timeZone, headers) => {
  const opts = { timeZone };

  it('events, documents, classes and fees', async () => {
    for (const ev of sb.dataset.events) {
      expect(parseEvent(await body(`/event/${ev.id}`, headers), opts)).toEqual(ev.event);
      expect(
        parseEventClassList(await body(`/eventclasses?eventId=${ev.id}&includeEntryFees=true`, headers), opts),
      ).toEqual(sb.dataset.details(ev).classes);
      expect(parseEntryFeeList(await body(`/entryfees/events/${ev.id}`, headers), opts)).toEqual(ev.fees);
    }
    const list = parseEventList(await body('/events?includeEntryBreaks=true&includeAttributes=true', headers), opts);
    const expected = [...sb.dataset.events].sort(
      (a, b) => (a.event.start ?? '').localeCompare(b.event.start ?? '') || Number(a.id) - Number(b.id),
    );
    expect(list).toEqual(expected.map((e) => bareOrganisers(e.event)));
    const docs = parseDocumentList(await body('/events/documents', headers), opts);
    expect(docs).toEqual(expected.flatMap((e) => e.documents));
  });

  it('organisations, persons and competitors', async () => {
    const club = sb.dataset.homeClub;
    expect(parseOrganisation(await body(`/organisation/${club.id}`, headers), opts)).toEqual(club.organisation);
    expect(parseOrganisationList(await body('/organisations?includeProperties=true', headers), opts)).toEqual(
      sb.dataset.organisations,
    );
    const persons = parsePersonList(
      await body(`/persons/organisations/${club.id}?includeContactDetails=true&includePersonIdentifiers=true`, headers),
      opts,
    );
    expect(persons).toEqual(club.members.map((m) => m.person));
    const competitors = parseCompetitorList(await body(`/competitors?organisationId=${club.id}`, headers), opts);
    expect(competitors).toEqual(club.members.filter((m) => m.hasSettings).map((m) => m.competitor));
  });

  it('entries with every flag, and without', async () => {
    const club = sb.dataset.homeClub;
    for (const on of [true, false]) {
      const flags = { person: on, organisation: on, event: on, fees: on };
      const q = `includePersonElement=${on}&includeOrganisationElement=${on}&includeEventElement=${on}&includeEntryFees=${on}`;
      const parsed = parseEntryList(await body(`/entries?organisationIds=${club.id}&${q}`, headers), opts);
      const expected = sb.dataset.events.flatMap((ev) =>
        sb.dataset
          .entriesAt(ev)
          .filter((e) => (e.competitor?.organisation?.id ?? e.team?.organisations[0]?.id) === club.id)
          .map((e) => projectEntry(e, ev, flags)),
      );
      expect(parsed.length).toBeGreaterThan(0);
      // The Event nested in an entry carries no attributes (they come only with /events flags).
      expect(parsed).toEqual(
        expected.map((e) =>
          e.event.event ? { ...e, event: { ...e.event, event: { ...e.event.event, attributes: [] } } } : e,
        ),
      );
    }
  });

  it('start and result lists (single, multi-day, relay), with splits', async () => {
    for (const ev of sb.dataset.events.filter((e) => e.hasResults || e.hasStartList)) {
      const d = sb.dataset.details(ev);
      // The Event nested in start and result lists has no entry breaks and no attributes (as in the samples).
      const ref = {
        id: ev.id,
        name: ev.event.name,
        event: { ...ev.event, attributes: [], entryBreaks: [], entryDeadlines: [] },
      };
      if (d.startList) {
        expect(parseStartList(await body(`/starts/event?eventId=${ev.id}`, headers), opts), ev.id).toEqual({
          ...d.startList,
          event: ref,
        });
      }
      if (d.resultList) {
        expect(
          parseResultList(await body(`/results/event?eventId=${ev.id}&includeSplitTimes=true`, headers), opts),
          ev.id,
        ).toEqual({ ...d.resultList, event: ref });
      }
    }
    const person = sb.dataset.homeClub.members.find((m) =>
      sb.dataset.events.some(
        (ev) =>
          ev.hasResults &&
          sb.dataset.details(ev).resultList!.classes.some((c) => c.persons.some((p) => p.person?.id === m.person.id)),
      ),
    )!;
    const lists = parseResultListList(await body(`/results/person?personId=${person.person.id}`, headers), opts);
    expect(lists.length).toBeGreaterThan(0);
  });

  it('activities with registrations', async () => {
    const club = sb.dataset.homeClub;
    const parsed = parseActivityList(
      await body(
        `/activities?organisationId=${club.id}&from=2000-01-01&to=2099-12-31&includeRegistrations=true`,
        headers,
      ),
      opts,
    );
    expect(parsed).toEqual(sb.dataset.activities.filter((a) => a.organisationId === club.id));
  });
});
