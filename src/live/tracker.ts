/**
 * Following one competition for one club (docs/live-results.md#following-a-competition): which
 * classes hold the club's runners, and those classes' results, read conditionally so that an
 * unchanged class costs a 304 (or a "NOT MODIFIED"). On the REST API the export says which classes
 * changed, so only those are read; on `api.php` each of the club's classes is asked with its hash.
 *
 * What it keeps is in memory and worth nothing after a restart but requests: the tokens, the last
 * good answer per class. An answer that cannot be read, and an empty answer for a class that had
 * runners (what an unknown class looks like), leave the last good one in place.
 */
import type { LiveClient } from './client.js';
import { type ClubAliases, type ClubStringMatch, clubRunners, clubStringMatch, matchClubStrings } from './clubs.js';
import { LiveError } from './errors.js';
import type {
  Conditional,
  LiveClassResults,
  LiveCompetition,
  LiveOverview,
  LiveRunner,
  LiveSourceKind,
} from './model.js';

export interface TrackerState {
  competition: LiveCompetition;
  /** The API that answered last. */
  source: LiveSourceKind;
  /** The club's runners, class by class in the order the classes were first seen, each class in the source's order. */
  runners: LiveRunner[];
  /** The club strings of the competition that name the club (for the admins to confirm the `alike` ones). */
  clubStrings: ClubStringMatch[];
  /** Whether a club runner differs from the previous state (false on the first). */
  changed: boolean;
  /** The reads that failed this time (their classes keep their last good answer). */
  errors: LiveError[];
}

interface ClassState {
  token: string | null;
  results: LiveClassResults | null;
  /** The export's newest change of the class when it was read. */
  readAt: number;
}

export class CompetitionTracker {
  readonly #client: LiveClient;
  readonly #id: number;
  readonly #aliases: ClubAliases;
  #competition: LiveCompetition | null = null;
  #overviewToken: string | null = null;
  #overview: LiveOverview | null = null;
  #classesToken: string | null = null;
  /** The classes holding club runners, in the order first seen; null until found. */
  #clubClasses: string[] | null = null;
  readonly #classes = new Map<string, ClassState>();
  #last: LiveRunner[] | null = null;

  constructor(client: LiveClient, competitionId: number, aliases: ClubAliases) {
    this.#client = client;
    this.#id = competitionId;
    this.#aliases = aliases;
  }

  /** One turn: what changed since the last, read as cheaply as the source allows. */
  async refresh(): Promise<TrackerState> {
    const errors: LiveError[] = [];
    this.#competition ??= await this.#client.competition(this.#id);
    const overview = await this.#client.overview(this.#id, this.#overviewToken);
    const toRead = overview !== null ? this.#fromOverview(overview) : await this.#legacyClasses();
    let source: LiveSourceKind = overview?.source ?? 'legacy';
    for (const className of toRead) {
      const state = this.#classes.get(className);
      try {
        const answer = await this.#client.classResults(this.#id, className, state?.token ?? null);
        source = answer.source;
        // An empty answer for a class that had runners is what an unknown class looks like: not taken.
        if (answer.kind === 'data' && !(answer.data.runners.length === 0 && (state?.results?.runners.length ?? 0) > 0))
          this.#classes.set(className, {
            token: answer.token,
            results: answer.data,
            readAt: this.#changeOf(className),
          });
      } catch (error) {
        if (!(error instanceof LiveError)) throw error;
        errors.push(error);
      }
    }
    if (overview === null && this.#clubClasses === null) this.#clubClasses = this.#classesWithClubRunners();
    const runners = (this.#clubClasses ?? []).flatMap((name) =>
      clubRunners(this.#aliases, this.#classes.get(name)?.results?.runners ?? []),
    );
    const changed = this.#last !== null && JSON.stringify(runners) !== JSON.stringify(this.#last);
    this.#last = runners;
    const seen = [...this.#classes.values()].flatMap((state) => state.results?.runners.map((r) => r.club) ?? []);
    return {
      competition: this.#competition,
      source,
      runners,
      clubStrings: matchClubStrings(this.#aliases, seen),
      changed,
      errors,
    };
  }

  /** The classes holding club runners, as far as the classes read tell. */
  get clubClasses(): readonly string[] {
    return this.#clubClasses ?? [];
  }

  #changeOf(className: string): number {
    return this.#overview?.classChangedAt[className] ?? 0;
  }

  #classesWithClubRunners(): string[] {
    return [...this.#classes]
      .filter(([, state]) => clubRunners(this.#aliases, state.results?.runners ?? []).length > 0)
      .map(([name]) => name);
  }

  /** The classes to read after an export: the club's classes that changed since read, or never read. */
  #fromOverview(answer: Conditional<LiveOverview>): string[] {
    if (answer.kind === 'data') {
      this.#overviewToken = answer.token;
      this.#overview = answer.data;
      const classes = new Set(
        answer.data.runners.filter((r) => clubStringMatch(this.#aliases, r.club) !== null).map((r) => r.className),
      );
      this.#clubClasses = [...classes];
    }
    return (this.#clubClasses ?? []).filter((name) => {
      const state = this.#classes.get(name);
      return state === undefined || this.#changeOf(name) > state.readAt;
    });
  }

  /**
   * On api.php, which has no export: every class once to find the club's (again when the class
   * list changes), then the club's classes each turn, with their hashes.
   */
  async #legacyClasses(): Promise<string[]> {
    const answer = await this.#client.classes(this.#id, this.#classesToken);
    if (answer.kind === 'data') {
      this.#classesToken = answer.token;
      if (this.#clubClasses === null || answer.data.some((name) => !this.#classes.has(name))) {
        this.#clubClasses = null;
        return answer.data;
      }
    }
    return this.#clubClasses ?? [];
  }
}
