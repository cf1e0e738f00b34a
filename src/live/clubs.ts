/**
 * The club's runners in a live competition (docs/live-results.md#the-clubs-runners). The club
 * string there is whatever the timing software uploaded, so the club is known by a set of aliases
 * (Eventor's names for it and what its admins added), matched against the club strings the
 * competition shows; then each runner found is checked against the club's entries or start list
 * by name and class. A runner who fits two entries is reported as ambiguous, never guessed.
 */
import type { LiveRunner } from './model.js';
import { clubKey, personKey, splitTeamNumber, words } from './names.js';

/** The club's names as Eventor holds them (an Organisation's name, short name, media name). */
export interface ClubNames {
  name: string | null;
  shortName?: string | null;
  mediaName?: string | null;
}

export interface ClubAliases {
  /** The strings, exactly as given (trimmed), that name the club for certain: Eventor's own, and those its admins added or confirmed. */
  readonly exact: ReadonlySet<string>;
  /** The comparison keys of every alias (clubKey). */
  readonly keys: ReadonlySet<string>;
}

/** The aliases of a club: Eventor's names plus the strings its admins added or confirmed. */
export function clubAliases(eventor: ClubNames, added: readonly string[] = []): ClubAliases {
  const fromEventor = [eventor.name, eventor.shortName, eventor.mediaName].filter(
    (name): name is string => typeof name === 'string' && name.trim() !== '',
  );
  const exact = new Set([...fromEventor, ...added].map((name) => name.trim()).filter((name) => name !== ''));
  const keys = new Set([...exact].map(clubKey).filter((key) => key !== ''));
  return { exact, keys };
}

/**
 * How a club string of the competition names the club: `exact` (one of its names, as written),
 * `alike` (an alias once folded, long forms made short: "Granskogens Orienteringsklubb" for
 * "Granskogens OK"; worth an admin's confirmation), or `team` (a relay team of it, "Granskogens OK 2").
 */
export interface ClubStringMatch {
  club: string;
  how: 'exact' | 'alike' | 'team';
  /** The team number of a relay team, else null. */
  team: number | null;
}

/** The club strings seen in the competition that name the club, each once, in the order first seen. */
export function matchClubStrings(aliases: ClubAliases, seen: Iterable<string>): ClubStringMatch[] {
  const out: ClubStringMatch[] = [];
  const done = new Set<string>();
  for (const club of seen) {
    if (done.has(club)) continue;
    done.add(club);
    const match = clubStringMatch(aliases, club);
    if (match !== null) out.push(match);
  }
  return out;
}

/** How one club string names the club, or null when it does not. */
export function clubStringMatch(aliases: ClubAliases, club: string): ClubStringMatch | null {
  const trimmed = club.trim();
  if (trimmed === '') return null;
  if (aliases.exact.has(trimmed)) return { club, how: 'exact', team: null };
  if (aliases.keys.has(clubKey(trimmed))) return { club, how: 'alike', team: null };
  const team = splitTeamNumber(trimmed);
  if (team.team !== null && (aliases.exact.has(team.club) || aliases.keys.has(clubKey(team.club))))
    return { club, how: 'team', team: team.team };
  return null;
}

/** The runners whose club string names the club. */
export function clubRunners(aliases: ClubAliases, runners: readonly LiveRunner[]): LiveRunner[] {
  const cache = new Map<string, boolean>();
  return runners.filter((runner) => {
    let fits = cache.get(runner.club);
    if (fits === undefined) cache.set(runner.club, (fits = clubStringMatch(aliases, runner.club) !== null));
    return fits;
  });
}

/** One of the club's entries or starts in Eventor, as the cross-check reads it. */
export interface ClubEntry {
  /** Eventor's person id, when there is one. */
  personId: string | null;
  /** "Given Family". */
  name: string;
  /** The class's name (or short name) in Eventor; null when not known yet. */
  className: string | null;
  /** The relay leg, for a team member. */
  leg?: number | null;
}

export type RunnerCheck =
  /** Exactly one entry of that name, in a class that fits. */
  | { kind: 'confirmed'; entry: ClubEntry }
  /** Exactly one entry of that name, but in another class (moved, or the classes were merged). */
  | { kind: 'other-class'; entry: ClubEntry }
  /** Several entries fit equally well: shown as such, never guessed. */
  | { kind: 'ambiguous'; entries: ClubEntry[] }
  /** No entry of that name: a late entry, or a namesake's club. */
  | { kind: 'unlisted' };

/**
 * Whether a live class is the Eventor class: the same name once folded; one of the names joined
 * by `/` ("H45/50" holds H45 and H50); or the class's relay leg ("Ungdom-2" for leg 2 of "Ungdom").
 */
export function classFits(liveClass: string, eventorClass: string | null, leg: number | null = null): boolean {
  if (eventorClass === null) return true;
  const live = words(liveClass).join('');
  const eventor = words(eventorClass).join('');
  if (live === eventor) return true;
  if (leg !== null) {
    const relay = /^(.*\S)\s*-\s*(\d{1,2})$/.exec(liveClass.trim());
    if (relay && Number(relay[2]) === leg && words(relay[1]!).join('') === eventor) return true;
  }
  if (!liveClass.includes('/')) return false;
  // "H45/50": the first part names the class fully, the others only what differs (its age).
  const parts = liveClass.split('/').map((part) => part.trim());
  const head = parts[0]!;
  const prefix = /^(\D*)/.exec(head)![1]!;
  return parts.some((part, i) => words(i === 0 || /^\D/.test(part) ? part : `${prefix}${part}`).join('') === eventor);
}

/** Each runner checked against the club's entries by name (in any order of its parts) and class. */
export function crossCheck(
  runners: readonly LiveRunner[],
  entries: readonly ClubEntry[],
): { runner: LiveRunner; check: RunnerCheck }[] {
  const byName = new Map<string, ClubEntry[]>();
  for (const entry of entries) {
    const key = personKey(entry.name);
    if (key === '') continue;
    const list = byName.get(key) ?? [];
    list.push(entry);
    byName.set(key, list);
  }
  return runners.map((runner) => {
    const named = byName.get(personKey(runner.name)) ?? [];
    if (named.length === 0) return { runner, check: { kind: 'unlisted' } };
    const fitting = named.filter((entry) => classFits(runner.className, entry.className, entry.leg ?? null));
    if (fitting.length === 1) return { runner, check: { kind: 'confirmed', entry: fitting[0]! } };
    if (fitting.length > 1) return { runner, check: { kind: 'ambiguous', entries: fitting } };
    if (named.length === 1) return { runner, check: { kind: 'other-class', entry: named[0]! } };
    return { runner, check: { kind: 'ambiguous', entries: named } };
  });
}

/**
 * The live runner that is this person, for a message about them alone (a member's own finish):
 * exactly one of the club's runners confirmed as them, else null with why. Two runners of the
 * person's name in fitting classes give `ambiguous`: better no message than one about someone else.
 */
export function runnerOfPerson(
  checked: readonly { runner: LiveRunner; check: RunnerCheck }[],
  personId: string,
): { runner: LiveRunner } | { problem: 'not-found' | 'ambiguous' } {
  const mine = checked.filter(
    ({ check }) =>
      (check.kind === 'confirmed' && check.entry.personId === personId) ||
      (check.kind === 'ambiguous' && check.entries.some((entry) => entry.personId === personId)),
  );
  if (mine.length === 0) return { problem: 'not-found' };
  if (mine.length > 1 || mine[0]!.check.kind !== 'confirmed') return { problem: 'ambiguous' };
  return { runner: mine[0]!.runner };
}
