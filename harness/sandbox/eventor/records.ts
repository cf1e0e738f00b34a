/**
 * The sandbox Eventor's records: what the dataset generates (dataset.ts) and fills in lazily
 * (participants.ts). Types only, in their own module so that the generator of an event's runners
 * needs the federation's shape and not the class that calls it.
 */
import type {
  ClassResult,
  Competitor,
  Entry,
  EntryFee,
  Event,
  EventClass,
  EventDocument,
  Organisation,
  OrganisationRef,
  Person,
  ResultList,
  StartList,
} from '../../../src/eventor/model.js';

export interface SandboxPerson {
  person: Person;
  /** Competitor settings; `hasSettings` false means the person never saved any (not in /competitors). */
  competitor: Competitor;
  hasSettings: boolean;
  username: string;
  password: string;
  clubId: string;
}

export interface SandboxClub {
  /** Same as organisation.id / organisation.name, for convenience. */
  id: string;
  name: string;
  organisation: Organisation;
  apiKey: string;
  members: SandboxPerson[];
}

export type EventShape = 'single' | 'multi' | 'relay';

export interface SandboxEvent {
  /** Same as event.id / event.name, for convenience. */
  id: string;
  name: string;
  event: Event;
  shape: EventShape;
  /** Whom its classes are for, as its name says (a veterans' cup has no junior classes). */
  ages: 'all' | 'veterans' | 'youth';
  fees: EntryFee[];
  documents: EventDocument[];
  /** Whether the draw is out (start list published) and whether results exist. */
  hasStartList: boolean;
  hasResults: boolean;
  /** Number of synthetic runners beyond club members (the 'large' event). */
  syntheticRunners: number;
  /** Lazily generated classes, entries, start list and results. */
  materialized: Materialized | null;
}

export interface Materialized {
  classes: EventClass[];
  /** Entries in full form (person and organisation filled); routes project them per flags. */
  entries: Entry[];
  startList: StartList | null;
  /** Results with split times; routes drop the splits unless includeSplitTimes. */
  resultList: ResultList | null;
  /** Recomputes positions and time behind of one race of a class (after a correction). */
  rerank(cr: ClassResult, raceIndex: number): void;
}

/** What generating an event's runners reads of the federation (SandboxDataset implements it). */
export interface SandboxFederation {
  readonly seed: number;
  /** The moment the data is generated around. */
  readonly now: Date;
  readonly clubs: readonly SandboxClub[];
  readonly homeClub: SandboxClub;
  orgRef(id: string): OrganisationRef;
}
