/**
 * Lazy per-event generation: classes, entries, start list and results (with split times) of one
 * sandbox event. Seeded per event, so generating one event never changes another, and the
 * 20,000-runner event of the 'large' dataset costs nothing until someone asks for it.
 */
import type {
  Card,
  ClassResult,
  Entry,
  EventClass,
  OrganisationRef,
  PersonRef,
  PersonResult,
  PersonStart,
  RaceResult,
  ResultList,
  ResultStatus,
  SplitTime,
  StartList,
  TeamResult,
  TeamStart,
} from '../../../src/eventor/model.js';
import { instantToLocal, toInstant } from '../../../src/time/zones.js';
import { FAMILY, GIVEN_F, GIVEN_M } from './names.js';
import { Prng } from './prng.js';
import type { Materialized, SandboxEvent, SandboxFederation, SandboxPerson } from './records.js';

const DAY = 86_400_000;

interface ClassSpec {
  name: string;
  sex: 'F' | 'M' | 'B';
  minAge: number | null;
  maxAge: number | null;
  km: number;
  legs: number | null;
}

interface Runner {
  ref: PersonRef | null;
  org: OrganisationRef | null;
  member: SandboxPerson | null;
  competitorId: string | null;
  card: Card;
  /** Seconds per km. */
  pace: number;
}

const YOUTH = [10, 12, 14, 16];
const SENIOR = [21, 35, 45, 55, 65, 75];

function classSpecs(classificationId: string, shape: SandboxEvent['shape'], ages: SandboxEvent['ages']): ClassSpec[] {
  if (shape === 'relay') {
    return [
      { name: 'H21 stafett', sex: 'M', minAge: null, maxAge: null, km: 6, legs: 3 },
      { name: 'D21 stafett', sex: 'F', minAge: null, maxAge: null, km: 5, legs: 3 },
      { name: 'Ungdom mix', sex: 'B', minAge: null, maxAge: 20, km: 3, legs: 3 },
    ];
  }
  // A veterans' cup has no youth or open-age classes, a youth series no adult ones; the open class is for anyone.
  const youth = ages === 'veterans' ? [] : classificationId === '5' ? [12, 16] : YOUTH;
  const senior =
    ages === 'youth'
      ? []
      : ages === 'veterans'
        ? SENIOR.filter((age) => age >= 35)
        : classificationId === '5'
          ? [21, 45]
          : SENIOR;
  const out: ClassSpec[] = [];
  for (const sex of ['F', 'M'] as const) {
    const p = sex === 'F' ? 'D' : 'H';
    for (const a of youth) out.push({ name: `${p}${a}`, sex, minAge: null, maxAge: a, km: 1 + a * 0.25, legs: null });
    for (const a of senior)
      out.push({
        name: `${p}${a}`,
        sex,
        minAge: a === 21 ? null : a,
        maxAge: null,
        km: a === 21 ? (sex === 'M' ? 9 : 7) : Math.max(3, 8 - (a - 35) / 10),
        legs: null,
      });
  }
  out.push({ name: 'Öppen 1', sex: 'B', minAge: null, maxAge: null, km: 3, legs: null });
  return out;
}

function classIndexFor(specs: ClassSpec[], sex: 'F' | 'M', age: number, rng: Prng): number {
  const open = specs.findIndex((s) => s.sex === 'B');
  if (open >= 0 && age >= 21 && rng.chance(0.08)) return open;
  let best = -1;
  specs.forEach((s, i) => {
    if (s.sex !== sex) return;
    if (s.maxAge !== null) {
      if (age <= s.maxAge && (best < 0 || (specs[best]!.maxAge ?? 99) > s.maxAge)) best = i;
    } else if (age >= 17 && (s.minAge ?? 21) <= Math.max(age, 21)) {
      if (best < 0 || specs[best]!.maxAge !== null || (specs[best]!.minAge ?? 21) < (s.minAge ?? 21)) best = i;
    }
  });
  return best >= 0 ? best : open;
}

function ageAt(birthDate: string | null, date: string): number {
  return birthDate ? Number(date.slice(0, 4)) - Number(birthDate.slice(0, 4)) : 30;
}

function statusRoll(rng: Prng): ResultStatus {
  const r = rng.next();
  if (r < 0.03) return 'DidNotStart';
  if (r < 0.06) return 'DidNotFinish';
  if (r < 0.1) return 'MissingPunch';
  return 'OK';
}

/**
 * A course's control codes in order. A control may come back later (a butterfly, a sprint), but
 * never twice in a row: a drawn repeat becomes the next code, so the random stream is unchanged.
 */
function controlCodes(rng: Prng, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const code = rng.int(31, 99);
    out.push(String(String(code) === out[i - 1] ? (code === 99 ? 31 : code + 1) : code));
  }
  return out;
}

/** Split times for a run; `status` decides where punches go missing. */
function splitsFor(rng: Prng, codes: string[], time: number | null, status: ResultStatus): SplitTime[] {
  if (status === 'DidNotStart' || (time === null && status !== 'DidNotFinish')) return [];
  const total = time ?? 3000;
  const missing = status === 'MissingPunch' ? rng.int(0, codes.length - 1) : -1;
  const stopAt = status === 'DidNotFinish' ? rng.int(1, Math.max(1, codes.length - 1)) : codes.length;
  let acc = 0;
  const weights = codes.map(() => 0.5 + rng.next());
  const sum = weights.reduce((a, b) => a + b, 0) * 1.08; // the run-in to the finish takes the rest
  return codes.map((code, i) => {
    acc += weights[i]!;
    if (i === missing || i >= stopAt) return { controlCode: code, time: null, status: 'Missing' as const };
    return { controlCode: code, time: Math.round((acc / sum) * total), status: 'OK' as const };
  });
}

function rankRace(persons: PersonResult[], raceIndex: number): void {
  const ok = persons
    .map((p) => p.results[raceIndex])
    .filter((r): r is RaceResult => !!r && r.status === 'OK' && r.time !== null);
  ok.sort((a, b) => a.time! - b.time!);
  const best = ok[0]?.time ?? 0;
  let position = 0;
  ok.forEach((r, i) => {
    if (i === 0 || r.time !== ok[i - 1]!.time) position = i + 1;
    r.position = position;
    r.timeBehind = r.time! - best;
  });
  for (const p of persons) {
    const r = p.results[raceIndex];
    if (r && r.status !== 'OK') {
      r.position = null;
      r.timeBehind = null;
    }
  }
}

const STATUS_ORDER: Record<string, number> = {
  OK: 0,
  MissingPunch: 1,
  DidNotFinish: 2,
  Disqualified: 3,
  DidNotStart: 4,
};
function sortPersons(persons: PersonResult[]): void {
  persons.sort((a, b) => {
    const ra = a.results[0]!;
    const rb = b.results[0]!;
    const sa = STATUS_ORDER[ra.status] ?? 5;
    const sb = STATUS_ORDER[rb.status] ?? 5;
    if (sa !== sb) return sa - sb;
    return (
      (ra.position ?? 1e9) - (rb.position ?? 1e9) ||
      (a.person?.name.family ?? '').localeCompare(b.person?.name.family ?? '')
    );
  });
}

export function materialize(ds: SandboxFederation, ev: SandboxEvent): Materialized {
  const rng = Prng.derive(ds.seed, 'event', ev.event.id);
  // Results draw from their own stream, so publishing them changes nothing else (entries, the draw).
  const outcome = Prng.derive(ds.seed, 'results', ev.event.id);
  const e = ev.event;
  const nowMs = ds.now.getTime();
  const specs = classSpecs(e.classificationId ?? '4', ev.shape, ev.ages);
  const classId = Number(e.id) * 100;
  const eventDate = instantToLocal(e.start ?? ds.now, 'UTC').date;
  const notOpen = e.status === 'approved' || e.status === 'created';

  // Who runs: club members by a chance depending on the event level; the home club runs more.
  const byClass: Runner[][] = specs.map(() => []);
  const relayPool: SandboxPerson[] = [];
  if (!notOpen) {
    const base = {
      championship: 0.22,
      national: 0.3,
      district: 0.28,
      local: 0.2,
      club: 0.0,
      international: 0.1,
      unknown: 0.1,
    }[e.classification];
    const organiserIds = new Set(e.organisers.map((o) => o.id));
    for (const club of ds.clubs) {
      for (const m of club.members) {
        const chance =
          e.classification === 'club'
            ? organiserIds.has(club.organisation.id)
              ? 0.6
              : 0
            : base * (club === ds.homeClub ? 2.2 : 1);
        if (!rng.chance(chance)) continue;
        if (ev.shape === 'relay') {
          relayPool.push(m);
          continue;
        }
        const idx = classIndexFor(specs, m.person.sex ?? 'M', ageAt(m.person.birthDate, eventDate), rng);
        if (idx < 0) continue;
        byClass[idx]!.push(memberRunner(ds, m));
      }
    }
    for (let i = 0; i < ev.syntheticRunners; i++) {
      const r = syntheticRunner(ds, rng, i);
      const idx = classIndexFor(specs, r.ref!.sex!, ageAt(r.ref!.birthDate, eventDate), rng);
      if (idx >= 0) byClass[idx]!.push(r);
    }
  }

  const classes: EventClass[] = specs.map((s, i) => {
    const id = String(classId + i + 1);
    const youth = s.maxAge !== null && s.maxAge <= 16;
    const n = ev.shape === 'relay' ? 0 : byClass[i]!.length;
    const raceStatus = ev.hasResults ? 'finished' : ev.hasStartList ? 'allocated' : 'notAllocated';
    return {
      id,
      name: s.name,
      shortName: s.name.replace(' stafett', ''),
      sex: s.sex,
      minAge: s.minAge,
      maxAge: s.maxAge,
      status: 'normal',
      classTypeId: '2',
      baseClassId: null,
      numberOfEntries: n,
      teamEntry: s.legs !== null,
      numberOfLegs: s.legs,
      entryFeeIds: [ev.fees[youth ? 1 : 0]!.id, ev.fees[2]!.id],
      races:
        s.legs !== null
          ? Array.from({ length: s.legs }, (_, leg) => ({
              id: `${id}${leg + 1}`,
              raceId: e.races[0]!.id,
              relayLeg: leg + 1,
              entries: 0,
              starts: 0,
              status: raceStatus,
            }))
          : e.races.map((r, ri) => ({
              id: `${id}${ri + 1}`,
              raceId: r.id,
              relayLeg: null,
              entries: n,
              starts: 0,
              status: raceStatus,
            })),
    };
  });

  const ordinaryTo = Date.parse(e.entryBreaks[0]?.to ?? e.start ?? ds.now.toISOString());
  const lateFrom = Date.parse(e.entryBreaks[1]?.from ?? e.start ?? ds.now.toISOString());
  const lateTo = Date.parse(e.entryBreaks[1]?.to ?? e.start ?? ds.now.toISOString());
  const entryTime = (): { at: number; late: boolean } => {
    const late = rng.chance(0.12);
    const at = late
      ? lateFrom + rng.int(0, Math.max(0, Math.floor((lateTo - lateFrom) / 1000))) * 1000
      : ordinaryTo - rng.int(1, 30 * 86_400) * 1000;
    return { at, late };
  };
  let entryId = Number(e.id) * 10_000;
  const entries: Entry[] = [];

  if (ev.shape === 'relay') {
    return relay(ds, ev, rng, outcome, classes, specs, relayPool, entries, entryTime, () => String(entryId++));
  }

  const raceIds = e.races.map((r) => r.id);
  const multi = e.races.length > 1;
  const interval = ev.syntheticRunners > 0 ? 10 : 120;
  const classStarts: PersonStart[][] = [];
  const classResults: ClassResult[] = [];
  specs.forEach((spec, ci) => {
    const cls = classes[ci]!;
    const runners = rng.shuffle(byClass[ci]!.slice());
    const personStarts: PersonStart[] = [];
    const personResults: PersonResult[] = [];
    const codesPerRace = e.races.map(() => controlCodes(rng, Math.round(6 + spec.km * 1.6)));
    const starts = cls.races;
    runners.forEach((runner, order) => {
      if (runner.member) {
        // Every entry is made now, dated when the runner enters: the sandbox shows those whose date
        // has come (`SandboxDataset.entriesAt`), so entries grow as its clock moves.
        const t = entryTime();
        const changedLater = rng.chance(0.2) ? rng.int(1, 3) * DAY : 0;
        entries.push({
          id: String(entryId++),
          event: { id: e.id, name: null, event: null },
          competitor: {
            competitorId: runner.competitorId,
            person: runner.ref,
            personId: runner.ref?.id ?? null,
            organisation: runner.org,
            cards: [runner.card],
          },
          team: null,
          classIds: [cls.id],
          classNames: [],
          raceIds,
          bibNumber: null,
          entryDate: toInstant(t.at),
          entryFeeIds: t.late ? cls.entryFeeIds.slice() : cls.entryFeeIds.slice(0, 1),
          modifiedAt: toInstant(t.at <= nowMs ? Math.min(nowMs, t.at + changedLater) : t.at),
        });
      }
      const listCard: Card = { number: runner.card.number, type: null };
      // Native lists name the race only for multi-race events (RaceStart/RaceResult wrappers).
      const raceStarts = e.races.map((race) => ({
        raceId: multi ? race.id : null,
        raceNumber: null,
        bibNumber: null,
        cards: [listCard],
        course: null,
        startTime: toInstant(Date.parse(race.date!) + (ci % 12) * 60_000 + order * interval * 1000),
      }));
      personStarts.push({ person: runner.ref, organisation: runner.org, starts: raceStarts });
      if (!ev.hasResults) return;
      const results: RaceResult[] = e.races.map((race, ri) => {
        const status = statusRoll(outcome);
        const st = raceStarts[ri]!.startTime;
        const time =
          status === 'DidNotStart' || status === 'DidNotFinish'
            ? null
            : Math.max(
                60,
                Math.round(
                  spec.km * runner.pace * (1 + 0.08 * outcome.normal()) * (status === 'MissingPunch' ? 0.95 : 1),
                ),
              );
        return {
          raceId: multi ? race.id : null,
          raceNumber: null,
          bibNumber: null,
          startTime: st,
          finishTime: time === null ? null : toInstant(Date.parse(st) + time * 1000),
          time,
          timeBehind: null,
          position: null,
          status,
          splits: splitsFor(outcome, codesPerRace[ri]!, time, status),
          overall: null,
          course: null,
          cards: [listCard],
        };
      });
      personResults.push({ person: runner.ref, organisation: runner.org, results });
    });
    for (let ri = 0; ri < e.races.length; ri++) {
      const started = personResults.filter((p) => p.results[ri]!.status !== 'DidNotStart').length;
      if (starts[ri]) {
        starts[ri]!.starts = ev.hasResults ? started : 0;
      }
      rankRace(personResults, ri);
    }
    sortPersons(personResults);
    personStarts.sort((a, b) => Date.parse(a.starts[0]!.startTime!) - Date.parse(b.starts[0]!.startTime!));
    const ref = { id: cls.id, name: cls.name, shortName: cls.shortName, resultListMode: 'Default' as const };
    classStarts.push(personStarts);
    classResults.push({
      class: ref,
      numberOfEntries: runners.length,
      numberOfStarts: ev.hasResults ? personResults.filter((p) => p.results[0]!.status !== 'DidNotStart').length : 0,
      courses: [],
      persons: personResults,
      teams: [],
    });
  });

  const startList: StartList | null = ev.hasStartList
    ? {
        event: { id: e.id, name: null, event: null },
        classes: classes
          .map((c, i) => ({
            class: { id: c.id, name: c.name, shortName: c.shortName, resultListMode: 'Default' as const },
            numberOfEntries: classStarts[i]!.length,
            courses: [],
            persons: classStarts[i]!,
            teams: [],
          }))
          .filter((c) => c.persons.length > 0),
      }
    : null;
  const resultList: ResultList | null = ev.hasResults
    ? {
        status: 'complete',
        event: { id: e.id, name: null, event: null },
        classes: classResults.filter((c) => c.persons.length > 0),
      }
    : null;
  return {
    classes,
    entries,
    startList,
    resultList,
    rerank(cr, raceIndex) {
      rankRace(cr.persons, raceIndex);
      if (raceIndex === 0) sortPersons(cr.persons);
    },
  };
}

function memberRunner(ds: SandboxFederation, m: SandboxPerson): Runner {
  const ability = Prng.derive(ds.seed, 'ability', m.person.id ?? '').next();
  const card = m.competitor.cards[0] ?? { number: String(1_000_000 + Number(m.person.id)), type: 'SI' as const };
  const { id, name, sex, birthDate, countryCode } = m.person;
  return {
    ref: { id, name, sex, birthDate, countryCode },
    org: ds.orgRef(m.clubId),
    member: m,
    competitorId: m.competitor.competitorId,
    card: { number: card.number, type: card.type },
    pace: 300 + ability * 300,
  };
}

function syntheticRunner(ds: SandboxFederation, rng: Prng, i: number): Runner {
  const sex = rng.chance(0.45) ? ('F' as const) : ('M' as const);
  const club = ds.clubs[i % ds.clubs.length]!;
  const year = Number(instantToLocal(ds.now, 'UTC').date.slice(0, 4)) - rng.int(9, 80);
  return {
    ref: {
      id: String(1_000_000 + i),
      name: { family: rng.pick(FAMILY), given: rng.pick(sex === 'F' ? GIVEN_F : GIVEN_M) },
      sex,
      birthDate: `${year}-0${rng.int(1, 9)}-1${rng.int(0, 9)}`,
      countryCode: club.organisation.countryCode,
    },
    org: ds.orgRef(club.organisation.id),
    member: null,
    competitorId: null,
    card: { number: String(2_000_000 + i), type: null },
    pace: 280 + rng.next() * 360,
  };
}

function relay(
  ds: SandboxFederation,
  ev: SandboxEvent,
  rng: Prng,
  outcome: Prng,
  classes: EventClass[],
  specs: ClassSpec[],
  pool: SandboxPerson[],
  entries: Entry[],
  entryTime: () => { at: number; late: boolean },
  nextEntryId: () => string,
): Materialized {
  const e = ev.event;
  const race = e.races[0]!;
  const eventDate = instantToLocal(race.date!, 'UTC').date;
  const teamsByClass: { name: string; club: string; members: SandboxPerson[] }[][] = specs.map(() => []);
  // Teams of three from the same club: youth (<= 20) mixed, adults per sex.
  for (const club of ds.clubs) {
    const members = pool.filter((m) => m.clubId === club.organisation.id);
    const groups: SandboxPerson[][] = [
      members.filter((m) => m.person.sex === 'M' && ageAt(m.person.birthDate, eventDate) > 20),
      members.filter((m) => m.person.sex === 'F' && ageAt(m.person.birthDate, eventDate) > 20),
      members.filter((m) => ageAt(m.person.birthDate, eventDate) <= 20),
    ];
    groups.forEach((g, ci) => {
      for (let t = 0; t + 3 <= g.length; t += 3) {
        teamsByClass[ci]!.push({
          name: `${club.organisation.shortName} ${t / 3 + 1}`,
          club: club.organisation.id,
          members: g.slice(t, t + 3),
        });
      }
    });
  }
  let bib = 1;
  const classStarts: TeamStart[][] = [];
  const classResults: ClassResult[] = [];
  specs.forEach((spec, ci) => {
    const cls = classes[ci]!;
    const teams = teamsByClass[ci]!;
    cls.numberOfEntries = teams.length;
    for (const r of cls.races) {
      r.entries = teams.length;
      r.starts = ev.hasResults ? teams.length : 0;
    }
    const codes = [0, 1, 2].map(() => controlCodes(rng, 12));
    const starts: TeamStart[] = [];
    const results: TeamResult[] = [];
    for (const team of teams) {
      const bibNumber = String(bib++);
      const org = ds.orgRef(team.club);
      const t = entryTime();
      entries.push({
        id: nextEntryId(),
        event: { id: e.id, name: null, event: null },
        competitor: null,
        team: {
          name: team.name,
          organisations: [org],
          members: team.members.map((m, leg) => ({ personId: m.person.id, organisationId: m.clubId, leg: leg + 1 })),
        },
        classIds: [cls.id],
        classNames: [],
        raceIds: [race.id],
        bibNumber,
        entryDate: toInstant(t.at),
        entryFeeIds: cls.entryFeeIds.slice(0, t.late ? 2 : 1),
        modifiedAt: toInstant(t.at),
      });
      const runners = team.members.map((m) => memberRunner(ds, m));
      starts.push({
        name: team.name,
        organisations: [org],
        bibNumber,
        startTime: race.date,
        members: runners.map((r, leg) => ({
          person: r.ref,
          organisation: r.org,
          leg: leg + 1,
          legOrder: 1,
          start: {
            raceId: null,
            raceNumber: null,
            startTime: leg === 0 ? race.date : null,
            bibNumber,
            cards: [{ number: r.card.number, type: null }],
            course: null,
          },
        })),
      });
      if (!ev.hasResults) continue;
      let clock = Date.parse(race.date!);
      let teamStatus = 'OK' as ResultStatus;
      let cumulative = 0;
      const members = runners.map((r, leg) => {
        const roll = outcome.next();
        const status: ResultStatus = roll < 0.04 ? 'MissingPunch' : roll < 0.06 ? 'DidNotFinish' : 'OK';
        const time = status === 'DidNotFinish' ? null : Math.round(spec.km * r.pace * (1 + 0.08 * outcome.normal()));
        const start = toInstant(clock);
        if (time !== null) clock += time * 1000;
        cumulative += time ?? 0;
        if (teamStatus === 'OK' && status !== 'OK') teamStatus = status;
        return {
          person: r.ref,
          organisation: r.org,
          leg: leg + 1,
          legOrder: 1,
          result: {
            raceId: null,
            raceNumber: null,
            bibNumber,
            startTime: start,
            finishTime: time === null ? null : toInstant(clock),
            time,
            timeBehind: null,
            position: null,
            status,
            splits: splitsFor(outcome, codes[leg]!, time, status),
            overall: {
              time: teamStatus === 'DidNotFinish' ? null : cumulative,
              timeBehind: null,
              position: null,
              status: teamStatus,
            },
            course: null,
            cards: [{ number: r.card.number, type: null }],
          } satisfies RaceResult,
        };
      });
      results.push({
        name: team.name,
        organisations: [org],
        bibNumber,
        startTime: race.date,
        finishTime: teamStatus === 'DidNotFinish' ? null : toInstant(clock),
        time: teamStatus === 'DidNotFinish' ? null : cumulative,
        timeBehind: null,
        position: null,
        status: teamStatus,
        members,
      });
    }
    rankRelay(results);
    classStarts.push(starts);
    classResults.push({
      class: { id: cls.id, name: cls.name, shortName: cls.shortName, resultListMode: 'Default' },
      numberOfEntries: teams.length,
      numberOfStarts: ev.hasResults ? teams.length : 0,
      courses: [],
      persons: [],
      teams: results,
    });
  });
  const startList: StartList | null = ev.hasStartList
    ? {
        event: { id: e.id, name: null, event: null },
        classes: classes
          .map((c, i) => ({
            class: { id: c.id, name: c.name, shortName: c.shortName, resultListMode: 'Default' as const },
            numberOfEntries: classStarts[i]!.length,
            courses: [],
            persons: [],
            teams: classStarts[i]!,
          }))
          .filter((c) => c.teams.length > 0),
      }
    : null;
  const resultList: ResultList | null = ev.hasResults
    ? {
        status: 'complete',
        event: { id: e.id, name: null, event: null },
        classes: classResults.filter((c) => c.teams.length > 0),
      }
    : null;
  return {
    classes,
    entries,
    startList,
    resultList,
    rerank(cr) {
      rankRelay(cr.teams);
    },
  };
}

/** Team positions, leg positions, leg time behind (seconds) and the standing after each leg. */
function rankRelay(teams: TeamResult[]): void {
  const okTeams = teams.filter((t) => t.status === 'OK' && t.time !== null).sort((a, b) => a.time! - b.time!);
  okTeams.forEach((t, i) => {
    t.position = i + 1;
  });
  for (const t of teams) if (t.status !== 'OK') t.position = null;
  const legs = Math.max(0, ...teams.map((t) => t.members.length));
  for (let leg = 0; leg < legs; leg++) {
    const legResults = teams
      .map((t) => t.members[leg]?.result)
      .filter((r): r is RaceResult => !!r && r.status === 'OK' && r.time !== null)
      .sort((a, b) => a.time! - b.time!);
    const best = legResults[0]?.time ?? 0;
    legResults.forEach((r, i) => {
      r.position = i + 1;
      r.timeBehind = r.time! - best;
    });
    const overall = teams
      .map((t) => t.members[leg]?.result.overall)
      .filter((o): o is NonNullable<typeof o> => !!o && o.status === 'OK' && o.time !== null)
      .sort((a, b) => a.time! - b.time!);
    overall.forEach((o, i) => {
      o.position = i + 1;
    });
  }
  teams.sort((a, b) => (a.position ?? 1e9) - (b.position ?? 1e9) || a.name.localeCompare(b.name));
}
