/**
 * The model as the Eventor client hands it out: the same types as model.ts, every object and array
 * in them read-only. Answers are deep-frozen and shared by every caller (the response cache hands
 * out one value, http.ts), so whatever reads them (the services, commands, feeds and rendering)
 * takes these: writing into an answer fails `tsc` instead of changing what another caller sees. A
 * caller that needs a changed value copies it. The parsers build the mutable model.ts types.
 */
import type * as Model from './model.js';
import type { DeepReadonly } from './response-cache.js';

export type { DeepReadonly };
export type {
  ClassificationId,
  EventClassification,
  EventStatus,
  KnownClassification,
  OrganisationKind,
  PunchingUnitType,
  ResultStatus,
} from './model.js';

export type OrganisationRef = DeepReadonly<Model.OrganisationRef>;
export type ContactDetails = DeepReadonly<Model.ContactDetails>;
export type Organisation = DeepReadonly<Model.Organisation>;
export type PersonName = DeepReadonly<Model.PersonName>;
export type PersonRef = DeepReadonly<Model.PersonRef>;
export type Person = DeepReadonly<Model.Person>;
export type Card = DeepReadonly<Model.Card>;
export type PreselectedClass = DeepReadonly<Model.PreselectedClass>;
export type Competitor = DeepReadonly<Model.Competitor>;
export type EventRace = DeepReadonly<Model.EventRace>;
export type EntryBreak = DeepReadonly<Model.EntryBreak>;
export type Event = DeepReadonly<Model.Event>;
export type EventRef = DeepReadonly<Model.EventRef>;
export type EventDocument = DeepReadonly<Model.EventDocument>;
export type EventClass = DeepReadonly<Model.EventClass>;
export type ClassRef = DeepReadonly<Model.ClassRef>;
export type EntryFee = DeepReadonly<Model.EntryFee>;
export type Entry = DeepReadonly<Model.Entry>;
export type CompetitorCount = DeepReadonly<Model.CompetitorCount>;
export type Course = DeepReadonly<Model.Course>;
export type RaceStart = DeepReadonly<Model.RaceStart>;
export type PersonStart = DeepReadonly<Model.PersonStart>;
export type TeamMemberStart = DeepReadonly<Model.TeamMemberStart>;
export type TeamStart = DeepReadonly<Model.TeamStart>;
export type ClassStart = DeepReadonly<Model.ClassStart>;
export type StartList = DeepReadonly<Model.StartList>;
export type SplitTime = DeepReadonly<Model.SplitTime>;
export type OverallResult = DeepReadonly<Model.OverallResult>;
export type RaceResult = DeepReadonly<Model.RaceResult>;
export type PersonResult = DeepReadonly<Model.PersonResult>;
export type TeamMemberResult = DeepReadonly<Model.TeamMemberResult>;
export type TeamResult = DeepReadonly<Model.TeamResult>;
export type ClassResult = DeepReadonly<Model.ClassResult>;
export type ResultList = DeepReadonly<Model.ResultList>;
export type ActivityRegistration = DeepReadonly<Model.ActivityRegistration>;
export type Activity = DeepReadonly<Model.Activity>;
