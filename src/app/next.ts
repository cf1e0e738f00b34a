/**
 * `/next` for one member: the races of the persons they linked in this server, never another
 * member's or server's (the races themselves: src/club/next-races.ts).
 */
import type { GuildEventor } from '../club/eventor-access.js';
import { nextRaces } from '../club/next-races.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { PersonRaces } from '../render/next.js';
import { localToday } from '../time/days.js';
import type { ClubMembers } from './club.js';
import type { Linking } from './linking.js';

/** Linked persons `/next` shows at most at once: a family, not a club. */
export const NEXT_PERSONS_MAX = 6;

/** `/next` for one member: only persons they linked in this server, never another member's or server's. */
export class NextRacesService {
  readonly #linking: Linking;
  readonly #club: ClubMembers;

  constructor(deps: { linking: Linking; club: ClubMembers }) {
    this.#linking = deps.linking;
    this.#club = deps.club;
  }

  /**
   * The member's persons' next races: one person (`personId`, which must be linked by this member
   * in this server) or every person they linked, the default first. The names are the club's
   * member list's, else the id.
   */
  async forMember(
    eventor: GuildEventor,
    who: { guildId: string; userId: string },
    personId: string | null,
    clock: { now: Date; timeZone: string },
  ): Promise<PersonRaces[]> {
    const linked = await this.#linking.linkedPersons(who.guildId, who.userId);
    if (linked.length === 0) throw new UserFacingError('error.notLinked');
    const chosen = personId === null ? linked : linked.filter((l) => l.personId === personId);
    if (chosen.length === 0) throw new UserFacingError('next.error.notYours');
    const persons = [...chosen].sort((a, b) => Number(b.isDefault) - Number(a.isDefault)).slice(0, NEXT_PERSONS_MAX);
    const ids = persons.map((p) => p.personId);
    const [races, names] = await Promise.all([
      nextRaces(eventor, ids, clock.now, localToday(clock.now, clock.timeZone)),
      Promise.all(ids.map((id) => this.#club.memberName(eventor, id).catch(() => null))),
    ]);
    return persons.map((p, i) => ({
      personId: p.personId,
      name: names[i] ?? p.personId,
      own: p.isDefault,
      races: races.filter((r) => r.personId === p.personId),
    }));
  }
}
