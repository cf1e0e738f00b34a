/**
 * One-time Eventor login links: who may get one (a person they linked with the person's Eventor
 * password, who is a member of the club now), the throttle (three per Discord user per ten
 * minutes, in every server together) and the audit entry. Delivering the link (a DM) is the bot's.
 *
 * The link logs its holder in as that person: it is registered with the logger's redaction the
 * moment it arrives, and it never enters an error, the audit log or a channel reply.
 */

import type { Person } from '../eventor/answers.js';
import type { Language } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import { type LinkedPerson, PROVEN_LINK, type Store } from '../store/interfaces.js';
import type { ClubMembers } from './club.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { GuildEventor } from '../club/eventor-access.js';
import type { Linking } from './linking.js';

/** Links per Discord user, across servers and persons: each is a live login to Eventor. */
export const LOGIN_SCOPE = 'login-link';
const WINDOW_MS = 10 * 60 * 1000;
const LINKS_PER_WINDOW = 3;
export const LINK_LIFETIME_MS = 5 * 60 * 1000;

const unix = (ms: number): number => Math.ceil(ms / 1000);

export interface LoginLinksDeps {
  store: Store;
  club: ClubMembers;
  linking: Linking;
  log: Logger;
  now: () => Date;
}

/** Who asks, where, and in which language their refusals are written. */
export interface Asker {
  guildId: string;
  userId: string;
  language: Language;
}

export class LoginLinks {
  readonly #deps: LoginLinksDeps;

  constructor(deps: LoginLinksDeps) {
    this.#deps = deps;
  }

  /**
   * The person a login is for when the member names none: the first of their persons (the default
   * comes first) linked with the Eventor password, say a parent's own when their default is a child
   * an admin linked. Without any, the default, which `issue` refuses with the way to upgrade.
   */
  async defaultPerson(guildId: string | null, userId: string): Promise<string> {
    const linked: readonly LinkedPerson[] = guildId ? await this.#deps.store.links.linkedPersons(guildId, userId) : [];
    const person = linked.find((p) => p.method === PROVEN_LINK) ?? linked[0];
    if (!person) throw new UserFacingError('error.notLinked');
    return person.personId;
  }

  /** The person the member named (free text they can type: only their own links count), or their default. */
  async chosenPerson(guildId: string | null, userId: string, asked: string | undefined): Promise<string> {
    const linked = guildId ? await this.#deps.store.links.linkedPersons(guildId, userId) : [];
    if (linked.length === 0) throw new UserFacingError('error.notLinked');
    const personId = asked ? linked.find((p) => p.personId === asked)?.personId : this.defaultPerson(guildId, userId);
    if (personId === undefined) throw new UserFacingError('login.error.notYours');
    return personId;
  }

  /** The persons a login link can be made for (autocomplete offers only these). */
  async provenPersons(guildId: string | null, userId: string): Promise<LinkedPerson[]> {
    return (guildId ? await this.#deps.store.links.linkedPersons(guildId, userId) : []).filter(
      (p) => p.method === PROVEN_LINK,
    );
  }

  /**
   * A login link for `personId`, once the person is checked to be the member's to log in as and
   * one of their three links in the window is taken; `compose` writes the DM (before Eventor
   * issues a live link, so nothing in Eventor's text can make the DM fail once the link exists).
   * The link is audited as soon as Eventor issued it, delivered or not: each is a live login.
   */
  async issue<Message>(
    eventor: () => Promise<GuildEventor>,
    asker: Asker,
    personId: string,
    compose: (person: Person, expiresAt: number) => Message,
    log: Logger = this.#deps.log,
  ): Promise<{ url: string; message: Message }> {
    const { store } = this.#deps;
    // Checked here, where the link is made, whichever way the member asked.
    await this.#deps.linking.requireProvenLink(eventor, asker, personId, {
      notLinked: 'login.error.notYours',
      notProven: 'login.error.notProven',
    });
    // Taken before Eventor is asked: the check and the record are one step, so parallel commands
    // cannot all pass, and /forget-me, which empties everything else, does not reset it.
    const taken = await store.throttles.takeThrottle(LOGIN_SCOPE, asker.userId, LINKS_PER_WINDOW, WINDOW_MS);
    if (taken.attempt === null)
      throw new UserFacingError('login.cooldown', {
        when: `<t:${unix((taken.retryAt ?? this.#deps.now()).getTime())}:R>`,
      });
    let url: string;
    let message: Message;
    try {
      const access = await eventor();
      // The club's member list as Eventor has it at this moment, not the client's day-old copy nor
      // one a minute old: whoever was removed from the club (or a server now on another club's key)
      // gets no login, and Eventor is not even asked for one.
      const person = await this.#deps.club.member(access, personId, { fresh: true });
      if (!person) throw new UserFacingError('login.error.notInClub');
      message = compose(person, this.#deps.now().getTime() + LINK_LIFETIME_MS);
      url = await access.client.externalLoginUrl({ personId, organisationId: access.organisationId });
    } catch (error) {
      // No link was issued, so none can be abused: the attempt is given back, and a member who met
      // an Eventor outage is not locked out for ten minutes by retrying. What Eventor is asked is
      // bounded anyway, by the per-member cooldown on commands that call it.
      await store.throttles.giveBackThrottle(LOGIN_SCOPE, asker.userId, taken.attempt);
      throw error;
    }
    log.redact(url, 'transient');
    await store.audit.audit({ guildId: asker.guildId, actorId: asker.userId, personId, action: 'login-link' });
    return { url, message };
  }
}
