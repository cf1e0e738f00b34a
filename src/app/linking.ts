/**
 * Linking a member's Discord account to their Eventor person in the server's club: with Eventor's
 * user name and password (proof by Eventor itself), by a request an admin approves, or by an admin
 * directly; choosing the default person; unlinking. The limits on wrong passwords live here, in the
 * store's throttle table, so they hold across servers, accounts, /forget-me and restarts.
 */
import { EventorError } from '../eventor/errors.js';
import type { Person } from '../eventor/answers.js';
import { type KeyWithVariables, type Language, type PlainKey, t } from '../i18n/index.js';
import type { Logger } from '../log/logger.js';
import { type LinkedPerson, type LinkMethod, type LinkRequest, PROVEN_LINK, type Store } from '../store/interfaces.js';
import { type ClubMembers, personNames } from './club.js';
import { UserFacingError } from '../i18n/user-facing-error.js';
import type { GuildEventor } from '../club/eventor-access.js';

/** Wrong passwords per member and server before a pause: the bot must not be a way to guess Eventor passwords. */
export const MAX_MEMBER_FAILURES = 5;
export const FAILURE_WINDOW_MS = 15 * 60_000;
/**
 * Wrong passwords per member and server, in the store's throttle table (a keyed hash of server
 * and member, and times): /forget-me deletes the audit entries and must not also reset the count
 * a guesser is held to, nor may a restart of the bot.
 */
export const MEMBER_FAILURE_SCOPE = 'link-failure-member';
/**
 * Wrong passwords per Eventor user name, from every Discord account and server together: a
 * guesser with many accounts is held to the same pace. The name is folded (trimmed, lower case)
 * and stored only as a keyed hash.
 */
export const USERNAME_FAILURE_SCOPE = 'link-failure-username';
const MAX_USERNAME_FAILURES = 5;
const foldUsername = (username: string): string => username.trim().toLowerCase();
/** Requests waiting for the admins per member: enough for a family, too few to flood the admin channel. */
export const MAX_PENDING_REQUESTS = 5;

/** What an HTTP header can carry (the client sends the credentials as headers); anything else cannot be a valid login. */
const HEADER_SAFE = /^[\u0020-\u007e\u00a0-\u00ff\t]+$/;

/** Every way a link can have been made, in the order they are listed. */
export const LINK_METHODS: readonly LinkMethod[] = ['credentials', 'approval', 'admin'];

/** Whether a link was made with the person's Eventor password (what acting as the person needs). */
export function isProvenLink(link: Pick<LinkedPerson, 'method'>): boolean {
  return link.method === PROVEN_LINK;
}

export interface LinkingDeps {
  store: Store;
  club: ClubMembers;
  log: Logger;
  now: () => Date;
}

export class Linking {
  readonly #deps: LinkingDeps;

  constructor(deps: LinkingDeps) {
    this.#deps = deps;
  }

  /** The member's linked persons in a server, the default first. */
  linkedPersons(guildId: string, userId: string): Promise<readonly LinkedPerson[]> {
    return this.#deps.store.links.linkedPersons(guildId, userId);
  }

  /** Whether the member linked this person with the person's Eventor password. */
  async hasProvenLink(guildId: string, userId: string, personId: string): Promise<boolean> {
    return (await this.linkedPersons(guildId, userId)).some((l) => l.personId === personId && isProvenLink(l));
  }

  /** The member's link requests still waiting for an admin. */
  pendingRequests(guildId: string, userId: string): Promise<readonly LinkRequest[]> {
    return this.#deps.store.links.pendingLinkRequests(guildId, userId);
  }

  /** Every link in a server (`/admin links`). */
  guildLinks(guildId: string): Promise<ReadonlyArray<LinkedPerson & { userId: string }>> {
    return this.#deps.store.links.guildLinks(guildId);
  }

  /** Refuses when the server's admins turned linking by Eventor password off (`/setup linking`). */
  async requireCredentialsAllowed(guildId: string): Promise<void> {
    if (!(await this.#deps.store.links.linkingMethods(guildId)).credentials)
      throw new UserFacingError('linking.credentials.disabled');
  }

  /**
   * Links the member to the person Eventor authenticates with `username` and `password`, or
   * refuses with the answer a wrong password gets. Each attempt is taken from both limits (the
   * member's and the user name's) before Eventor is asked, in one step each, so parallel forms
   * cannot all pass; it is given back only when it turned out to be no wrong password.
   */
  async linkWithCredentials(
    eventor: () => Promise<GuildEventor>,
    who: { guildId: string; userId: string },
    username: string,
    password: string,
    log: Logger = this.#deps.log,
  ): Promise<Person> {
    const { store } = this.#deps;
    const { guildId, userId } = who;
    await this.requireCredentialsAllowed(guildId);
    const now = this.#deps.now().getTime();
    const minutesUntil = (retryAt: Date | null): number =>
      Math.max(1, Math.ceil(((retryAt?.getTime() ?? now) - now) / 60_000));
    const member = `${guildId}:${userId}`;
    const memberTaken = await store.throttles.takeThrottle(
      MEMBER_FAILURE_SCOPE,
      member,
      MAX_MEMBER_FAILURES,
      FAILURE_WINDOW_MS,
    );
    if (memberTaken.attempt === null)
      throw new UserFacingError('linking.credentials.tooMany', { minutes: minutesUntil(memberTaken.retryAt) });
    const giveBackMemberAttempt = async (): Promise<void> =>
      await store.throttles.giveBackThrottle(MEMBER_FAILURE_SCOPE, member, memberTaken.attempt!);
    // Per Eventor user name too, whichever Discord account and server the guesses come from.
    const folded = foldUsername(username);
    const usernameTaken = await store.throttles.takeThrottle(
      USERNAME_FAILURE_SCOPE,
      folded,
      MAX_USERNAME_FAILURES,
      FAILURE_WINDOW_MS,
    );
    if (usernameTaken.attempt === null) {
      // Refused before Eventor was asked: no guess was made, so it is none of the member's.
      await giveBackMemberAttempt();
      throw new UserFacingError('linking.credentials.tooManyForUsername', {
        minutes: minutesUntil(usernameTaken.retryAt),
      });
    }
    const giveBackAttempts = async (): Promise<void> => {
      await giveBackMemberAttempt();
      await store.throttles.giveBackThrottle(USERNAME_FAILURE_SCOPE, folded, usernameTaken.attempt!);
    };
    let person: Person | null;
    let access: GuildEventor;
    try {
      access = await eventor();
      person = await authenticate(access, username, password);
    } catch (error) {
      // Eventor not answering is no wrong password.
      await giveBackAttempts();
      throw error;
    }
    // The right password of someone outside the club gets the very answer of a wrong one, and counts
    // as a failure: anything else would tell a guesser which password is right. Eventor failing in
    // the club check leaves the failure counted, so an outage cannot hand out free guesses.
    if (!person || person.id === null || !(await this.#deps.club.belongsToClub(access, person))) {
      await store.audit.audit({ guildId, actorId: userId, action: 'link-failed' });
      throw new UserFacingError('linking.credentials.wrong');
    }
    await giveBackAttempts();
    await store.links.linkPerson(guildId, userId, person.id, 'credentials');
    await store.audit.audit({ guildId, actorId: userId, personId: person.id, action: 'link', detail: 'credentials' });
    log.info('member linked', { method: 'credentials', person: person.id });
    return person;
  }

  /**
   * Checks a request to be linked to the club member `personOption` names and records it as
   * pending; the caller posts it in the admin channel and calls `dropRequest` when that fails.
   */
  async createRequest(
    eventor: () => Promise<GuildEventor>,
    who: { guildId: string; userId: string; locale: string },
    personOption: string,
    label: (person: Person) => string,
  ): Promise<{ request: LinkRequest; person: Person & { id: string }; adminChannel: string; othersLinked: string[] }> {
    const { store } = this.#deps;
    const { guildId, userId } = who;
    if (!(await store.links.linkingMethods(guildId)).approval) throw new UserFacingError('linking.request.disabled');
    const adminChannel = (await store.servers.guildSettings(guildId))?.channels.admin;
    if (!adminChannel) throw new UserFacingError('linking.request.noAdminChannel');
    const person = await this.#deps.club.requireMember(await eventor(), personOption);
    if ((await store.links.linkedPersons(guildId, userId)).some((l) => l.personId === person.id))
      throw new UserFacingError('linking.request.alreadyLinked', { person: label(person) });
    const pending = await store.links.pendingLinkRequests(guildId, userId);
    if (pending.some((p) => p.personId === person.id))
      throw new UserFacingError('linking.request.alreadyPending', { person: label(person) });
    if (pending.length >= MAX_PENDING_REQUESTS)
      throw new UserFacingError('linking.request.tooMany', { max: MAX_PENDING_REQUESTS });
    const request = await store.links.createLinkRequest({ guildId, userId, personId: person.id, locale: who.locale });
    const othersLinked = (await store.links.guildLinks(guildId))
      .filter((l) => l.personId === person.id && l.userId !== userId)
      .map((l) => l.userId);
    return { request, person, adminChannel, othersLinked };
  }

  /** The request could not reach the admins: it is not left pending. */
  async dropRequest(requestId: number): Promise<void> {
    await this.#deps.store.links.dropLinkRequest(requestId);
  }

  /** The request reached the admins. */
  async requestPosted(request: { guildId: string; userId: string; personId: string }): Promise<void> {
    await this.#deps.store.audit.audit({
      guildId: request.guildId,
      actorId: request.userId,
      personId: request.personId,
      action: 'link-request',
    });
  }

  /**
   * An admin approves or denies a pending request of this server, once. The person must still be a
   * club member to be approved (the server may have moved to another club's key since).
   */
  async decide(
    eventor: () => Promise<GuildEventor>,
    who: { guildId: string; adminId: string },
    requestId: number,
    approve: boolean,
    log: Logger = this.#deps.log,
  ): Promise<{ request: LinkRequest; person: Person | null }> {
    const { store } = this.#deps;
    const { guildId, adminId } = who;
    const id = requestId;
    const found = Number.isSafeInteger(id) ? await store.links.linkRequest(id) : null;
    if (!found || found.guildId !== guildId) throw new UserFacingError('linking.decide.gone');
    if (found.state !== 'pending')
      throw new UserFacingError(
        found.state === 'approved' ? 'linking.decide.alreadyApproved' : 'linking.decide.alreadyDenied',
      );
    const person = await this.#deps.club.member(await eventor(), found.personId);
    if (approve && !person) throw new UserFacingError('linking.error.notInClub');
    if (!(await store.links.decideLinkRequest(id, approve, adminId)))
      throw new UserFacingError('linking.decide.alreadyDecided');
    await store.audit.audit({
      guildId,
      actorId: adminId,
      subjectId: found.userId,
      personId: found.personId,
      action: approve ? 'link' : 'link-deny',
      detail: approve ? 'approval' : null,
    });
    log.info(approve ? 'link request approved' : 'link request denied', { request: id, person: found.personId });
    return { request: found, person };
  }

  /**
   * Refuses to act AS a person in Eventor (a login link, a chip change) unless `userId` linked that
   * person by giving Eventor the person's user name and password. A link an admin made or approved
   * says who a member is in the club, enough for their own starts, results and DMs; but anyone with
   * Manage Server can make one to anyone, so it must not open that person's Eventor account.
   * `notLinked` is the refusal when the person is not linked to the user at all.
   */
  async requireProvenLink(
    eventor: () => Promise<GuildEventor>,
    asker: { guildId: string; userId: string; language: Language },
    personId: string,
    refusals: { notLinked: PlainKey; notProven: KeyWithVariables<'person' | 'method'> },
  ): Promise<void> {
    const link = (await this.#deps.store.links.linkedPersons(asker.guildId, asker.userId)).find(
      (l) => l.personId === personId,
    );
    if (!link) throw new UserFacingError(refusals.notLinked);
    if (isProvenLink(link)) return;
    const names = await personNames(this.#deps.club, eventor, [personId], this.#deps.log);
    throw new UserFacingError(refusals.notProven, {
      person: names.get(personId)!,
      method: t(asker.language, `linking.method.${link.method}`),
    });
  }

  /** Which of the member's linked persons commands use by default. */
  async setDefault(guildId: string, userId: string, personId: string): Promise<void> {
    if (!(await this.#deps.store.links.setDefaultPerson(guildId, userId, personId)))
      throw new UserFacingError('linking.default.notLinked');
    await this.#deps.store.audit.audit({ guildId, actorId: userId, personId, action: 'link-default' });
  }

  /**
   * An admin links a member to a club member directly. An existing link keeps its method (an admin
   * can neither take away nor grant the member's own proof); the method the link has is returned.
   */
  async adminLink(
    eventor: GuildEventor,
    who: { guildId: string; adminId: string; userId: string },
    personOption: string,
    log: Logger = this.#deps.log,
  ): Promise<{ person: Person & { id: string }; method: LinkMethod }> {
    const { store } = this.#deps;
    const person = await this.#deps.club.requireMember(eventor, personOption);
    await store.links.linkPerson(who.guildId, who.userId, person.id, 'admin');
    await store.audit.audit({
      guildId: who.guildId,
      actorId: who.adminId,
      subjectId: who.userId,
      personId: person.id,
      action: 'link',
      detail: 'admin',
    });
    log.info('member linked', { method: 'admin', person: person.id });
    const method =
      (await store.links.linkedPersons(who.guildId, who.userId)).find((l) => l.personId === person.id)?.method ??
      'admin';
    return { person, method };
  }

  /** Removes one link, by the member or (`actorId` another) an admin; false when it was not there. */
  async unlink(guildId: string, userId: string, personId: string, actorId: string = userId): Promise<boolean> {
    if (!(await this.#deps.store.links.unlinkPerson(guildId, userId, personId))) return false;
    await this.#deps.store.audit.audit({
      guildId,
      actorId,
      ...(actorId === userId ? {} : { subjectId: userId }),
      personId,
      action: 'unlink',
    });
    return true;
  }
}

/** Eventor's person for these credentials, or null when Eventor says they are wrong. */
async function authenticate(eventor: GuildEventor, username: string, password: string): Promise<Person | null> {
  if (!HEADER_SAFE.test(username) || !HEADER_SAFE.test(password)) return null;
  try {
    return await eventor.client.authenticatePerson({ username, password });
  } catch (error) {
    if (error instanceof EventorError && error.code === 'AuthenticationFailed') return null;
    throw error;
  }
}
