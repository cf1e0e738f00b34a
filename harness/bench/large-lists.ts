/**
 * Result lists with split times of a made-up size for the `analysis` bench section, built in the
 * bot's own process (the sandbox Eventor would take minutes to write one of 100,000 runners with
 * splits as XML, and the parse has its own figure). Deterministic: the same list on every run.
 */
import type { ClassResult, PersonResult, ResultList, SplitTime } from '../../src/eventor/model.js';

export interface LargeListShape {
  classes: number;
  runnersPerClass: number;
  controls: number;
  /** The club's runners in each class (the first ones of it); the others are another club's. */
  clubPerClass: number;
  /** The club's Eventor id. */
  club: string;
}

const OTHER_CLUB = '999999';

/** A complete result list of that shape: every runner OK, paces and mistakes made up. */
export function largeResultList(shape: LargeListShape): ResultList {
  let seed = 20_261_127;
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  const codes = Array.from({ length: shape.controls }, (_, k) => String(31 + k));
  const classes: ClassResult[] = Array.from({ length: shape.classes }, (_, c) => {
    const persons: PersonResult[] = Array.from({ length: shape.runnersPerClass }, (_, r) => {
      const pace = 0.8 + random() * 0.6;
      let at = 0;
      const splits: SplitTime[] = codes.map((controlCode) => ({
        controlCode,
        time: (at += Math.round((60 + random() * 120) * pace + (random() < 0.05 ? 60 + random() * 120 : 0))),
        status: 'OK',
      }));
      const club = r < shape.clubPerClass ? shape.club : OTHER_CLUB;
      return {
        person: {
          id: String(1_000_000 + c * shape.runnersPerClass + r),
          name: { given: 'Runner', family: `${c + 1}-${r + 1}` },
          sex: null,
          birthDate: null,
          countryCode: null,
        },
        organisation: { id: club, name: `Club ${club}`, shortName: null, countryCode: 'SWE' },
        results: [
          {
            raceId: null,
            raceNumber: 1,
            bibNumber: null,
            startTime: null,
            finishTime: null,
            time: at + Math.round(40 * pace),
            timeBehind: null,
            position: null,
            status: 'OK',
            splits,
            overall: null,
            course: null,
            cards: [],
          },
        ],
      };
    });
    return {
      class: { id: String(c + 1), name: `H${21 + c}`, shortName: null, resultListMode: 'Default' },
      numberOfEntries: persons.length,
      numberOfStarts: persons.length,
      courses: [],
      persons,
      teams: [],
    };
  });
  return { status: 'complete', event: { id: '49999', name: 'Bench event', event: null }, classes };
}
