/**
 * Synthetic Eventor bodies for client tests: the sandbox Eventor's own native and IOF writers
 * turn its seeded dataset (domain objects) into replies of exactly Eventor's shapes. Tests fetch
 * them once and serve them from their own loopback server, which keeps control of the transport.
 * Nothing here reads the real sample files (only the conformance tests do).
 */
import { startSandboxEventor } from '../../harness/sandbox/eventor/server.js';

/** A fixed seed and clock: the same bodies on every run. */
const SEED = 7;
const NOW = new Date('2026-05-15T10:00:00Z');

export interface SyntheticBodies {
  events: string;
  eventsDocuments: string;
  event: string;
  eventClasses: string;
  entryFees: string;
  organisationApiKey: string;
  organisation: string;
  entries: string;
  competitorCount: string;
  startsEvent: string;
  startsPerson: string;
  resultsOrganisation: string;
  resultsPerson: string;
  resultsEventIof: string;
  startsEventIof: string;
}

/** What the bodies hold, taken from the sandbox's domain objects. */
export interface SyntheticFacts {
  /** Ids of the events in `events`, in their order. */
  eventIds: string[];
  /** The event of `event`. */
  event: { id: string; name: string };
  /** The organisation of `organisationApiKey` (the sandbox's home club). */
  homeClub: { id: string; name: string };
  /** The person of `resultsPerson`. */
  resultsPersonId: string;
  /** Event and class names of the IOF result and start lists. */
  iofResults: { eventId: string; classNames: string[] };
  iofStarts: { eventId: string; classNames: string[] };
}

export interface SyntheticEventor {
  bodies: SyntheticBodies;
  facts: SyntheticFacts;
}

/** Starts the sandbox, fetches one body per operation the client tests serve, and stops it. */
export async function fetchSyntheticEventor(): Promise<SyntheticEventor> {
  const sandbox = await startSandboxEventor({ port: 0, seed: SEED, now: NOW });
  try {
    const d = sandbox.dataset;
    const home = d.homeClub;
    const member = home.members[0]!;
    const done = d.events.filter((e) => e.hasResults && e.shape === 'single');
    const listed = done.slice(0, 3);
    const one = done[0]!;
    const get = async (path: string, utc: boolean): Promise<string> => {
      const res = await fetch(`${sandbox.baseUrl}${path}`, {
        headers: { ApiKey: sandbox.apiKey, ...(utc ? { TimeZone: 'UTC' } : {}) },
      });
      const text = await res.text();
      if (res.status !== 200) throw new Error(`sandbox ${path}: ${res.status} ${text.slice(0, 200)}`);
      return text;
    };
    const range = 'fromDate=2026-01-01%2000:00:00&toDate=2026-12-31%2023:59:59';
    const bodies: SyntheticBodies = {
      events: await get(`/events?eventIds=${listed.map((e) => e.id).join(',')}&includeEntryBreaks=true`, true),
      eventsDocuments: await get(`/events/documents?eventIds=${one.id}`, true),
      // Native times (no TimeZone header): the time-zone test decides how they are read.
      event: await get(`/event/${one.id}`, false),
      eventClasses: await get(`/eventclasses?eventId=${one.id}&includeEntryFees=true`, true),
      entryFees: await get(`/entryfees/events/${one.id}`, true),
      organisationApiKey: await get('/organisation/apiKey', true),
      organisation: await get(`/organisation/${d.districts[0]!.id}`, true),
      entries: await get(`/entries?organisationIds=${home.id}&eventIds=${one.id}&includePersonElement=true`, true),
      competitorCount: await get(`/competitorcount?organisationIds=${home.id}&eventIds=${one.id}`, true),
      startsEvent: await get(`/starts/event?eventId=${one.id}`, true),
      startsPerson: await get(`/starts/person?personId=${member.person.id!}&${range}`, true),
      resultsOrganisation: await get(`/results/organisation?organisationIds=${home.id}&eventId=${one.id}`, true),
      resultsPerson: await get(`/results/person?personId=${member.person.id!}&${range}`, true),
      resultsEventIof: await get(`/results/event/iofxml?eventId=${one.id}&includeSplitTimes=true`, true),
      startsEventIof: await get(`/starts/event/iofxml?eventId=${one.id}`, true),
    };
    const details = d.details(one);
    const facts: SyntheticFacts = {
      eventIds: listed.map((e) => e.id),
      event: { id: one.id, name: one.name },
      homeClub: { id: home.id, name: home.name },
      resultsPersonId: member.person.id!,
      iofResults: { eventId: one.id, classNames: details.resultList!.classes.map((c) => c.class.name) },
      iofStarts: { eventId: one.id, classNames: details.startList!.classes.map((c) => c.class.name) },
    };
    return { bodies, facts };
  } finally {
    await sandbox.close();
  }
}
