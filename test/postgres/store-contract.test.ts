import { beforeEach, expect, it } from 'vitest';
import type { CupRow, FeedSettingsRow, Store } from '../../src/store/interfaces.js';
import { describeEachDialect, type StoreFactory } from '../support/stores.js';

/**
 * What every store promises, on every database it runs on (test/support/stores.ts): every method
 * of every part with the behaviour the SQLite store has always had, transactions across parts,
 * and the steps that must stay atomic when several processes race for them (two stores on one
 * database stand for two processes: each has its own connections).
 */

const START = Date.parse('2026-03-01T10:00:00.000Z');
const MINUTE = 60_000;
const API_KEY = '058b7db0e5714f779d8821e7fbcd0307';

/** How many times each race is run: a broken lock shows within a few rounds (checked by hand). */
const RACE_ROUNDS = 40;

describeEachDialect('the store contract', (stores) => {
  let time = START;
  const now = () => new Date(time);
  /** Moves the store's clock on and returns the new time as the store writes it. */
  const advance = (ms = 1_000) => new Date((time += ms)).toISOString();
  const iso = (at = time) => new Date(at).toISOString();
  let store: Store;
  let factory: StoreFactory;

  beforeEach(async () => {
    time = START;
    factory = stores();
    store = await factory.fresh({ now });
  });

  it('says which database it is, without a password', () => {
    expect(store.dialect).toBe(factory.dialect);
    expect(store.description).not.toMatch(/password|secret/i);
    expect(store.description.length).toBeGreaterThan(0);
  });

  // --- servers ---

  it('server settings: none until written, then partial updates with the clock', async () => {
    expect(await store.servers.guildSettings('g1')).toBeNull();
    const first = await store.servers.updateGuildSettings('g1', { locale: 'sv-SE', timeZone: 'Europe/Stockholm' });
    expect(first).toEqual({
      guildId: 'g1',
      eventorInstance: null,
      eventorBaseUrl: null,
      hasApiKey: false,
      organisationId: null,
      organisationName: null,
      locale: 'sv-SE',
      timeZone: 'Europe/Stockholm',
      channels: {},
      updatedAt: iso(),
    });
    const later = advance();
    const second = await store.servers.updateGuildSettings('g1', { locale: null, eventorInstance: 'no' });
    expect(second).toMatchObject({
      locale: null,
      timeZone: 'Europe/Stockholm',
      eventorInstance: 'no',
      updatedAt: later,
    });
    expect(await store.servers.guildSettings('g1')).toEqual(second);
  });

  it('server keys: sealed in, opened out, with the organisation; connectEventor changes all together', async () => {
    expect(await store.servers.apiKey('g1')).toBeNull();
    await store.servers.setApiKey('g1', API_KEY, { id: '321', name: 'OK Sandbox' });
    expect(await store.servers.apiKey('g1')).toBe(API_KEY);
    const settings = await store.servers.guildSettings('g1');
    expect(settings).toMatchObject({ hasApiKey: true, organisationId: '321', organisationName: 'OK Sandbox' });
    expect(JSON.stringify(settings)).not.toContain(API_KEY);

    const connected = await store.servers.connectEventor('g1', {
      instance: 'custom',
      baseUrl: 'http://127.0.0.1:9/api',
      apiKey: 'another-key',
      organisation: { id: '7', name: 'IK Other' },
    });
    expect(connected).toMatchObject({
      eventorInstance: 'custom',
      eventorBaseUrl: 'http://127.0.0.1:9/api',
      hasApiKey: true,
      organisationId: '7',
      organisationName: 'IK Other',
    });
    // Another process with the same SECRET_KEY reads the same key.
    const other = await factory.again(store);
    expect(await other.servers.apiKey('g1')).toBe('another-key');
  });

  it('server channels: set, replaced and removed per kind, listed by kind', async () => {
    await store.servers.setChannel('g1', 'results', 'c1');
    await store.servers.setChannel('g1', 'admin', 'c2');
    const later = advance();
    await store.servers.setChannel('g1', 'results', 'c3');
    expect(await store.servers.guildSettings('g1')).toMatchObject({
      channels: { admin: 'c2', results: 'c3' },
      updatedAt: later,
    });
    expect(Object.keys((await store.servers.guildSettings('g1'))!.channels)).toEqual(['admin', 'results']);
    await store.servers.setChannel('g1', 'admin', null);
    expect((await store.servers.guildSettings('g1'))!.channels).toEqual({ results: 'c3' });
  });

  // --- links ---

  it('links: the first is the default; linking again only ever upgrades to credentials', async () => {
    await store.links.linkPerson('g1', 'u1', 'p1', 'admin');
    advance();
    await store.links.linkPerson('g1', 'u1', 'p2', 'credentials');
    advance();
    await store.links.linkPerson('g1', 'u1', 'p2', 'admin');
    await store.links.linkPerson('g1', 'u1', 'p1', 'credentials');
    await store.links.linkPerson('g1', 'u1', 'p1', 'approval');
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([
      { personId: 'p1', isDefault: true, method: 'credentials', linkedAt: iso(START) },
      { personId: 'p2', isDefault: false, method: 'credentials', linkedAt: iso(START + 1_000) },
    ]);
    expect(await store.links.linkedPersons('g1', 'u2')).toEqual([]);
    expect(await store.links.linkedPersons('g2', 'u1')).toEqual([]);
  });

  it('links: unlinking the default makes the oldest remaining one the default; setDefaultPerson', async () => {
    for (const person of ['p1', 'p2', 'p3']) {
      await store.links.linkPerson('g1', 'u1', person, 'admin');
      advance();
    }
    expect(await store.links.setDefaultPerson('g1', 'u1', 'p3')).toBe(true);
    expect(await store.links.setDefaultPerson('g1', 'u1', 'nobody')).toBe(false);
    expect((await store.links.linkedPersons('g1', 'u1')).map((l) => [l.personId, l.isDefault])).toEqual([
      ['p3', true],
      ['p1', false],
      ['p2', false],
    ]);
    expect(await store.links.unlinkPerson('g1', 'u1', 'p3')).toBe(true);
    expect((await store.links.linkedPersons('g1', 'u1')).map((l) => [l.personId, l.isDefault])).toEqual([
      ['p1', true],
      ['p2', false],
    ]);
    expect(await store.links.unlinkPerson('g1', 'u1', 'p3')).toBe(false);
    expect(await store.links.unlinkPerson('g1', 'u1', 'p2')).toBe(true);
    expect(await store.links.unlinkPerson('g1', 'u1', 'p1')).toBe(true);
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
  });

  it("links: a server's links by user, the default first; forgetting a member's or a server's", async () => {
    await store.links.linkPerson('g1', 'u2', 'p1', 'admin');
    await store.links.linkPerson('g1', 'u1', 'p2', 'admin');
    advance();
    await store.links.linkPerson('g1', 'u1', 'p3', 'credentials');
    await store.links.linkPerson('g2', 'u1', 'p2', 'admin');
    await store.links.createLinkRequest({ guildId: 'g1', userId: 'u1', personId: 'p9', locale: 'sv' });
    expect((await store.links.guildLinks('g1')).map((l) => [l.userId, l.personId, l.isDefault])).toEqual([
      ['u1', 'p2', true],
      ['u1', 'p3', false],
      ['u2', 'p1', true],
    ]);
    expect(await store.links.forgetMemberLinks('g1', 'u1')).toEqual({ links: 2, requests: 1 });
    expect(await store.links.forgetMemberLinks('g1', 'u1')).toEqual({ links: 0, requests: 0 });
    expect(await store.links.forgetGuildLinks('g1')).toEqual({ links: 1, requests: 0 });
    expect(await store.links.guildLinks('g1')).toEqual([]);
    expect(await store.links.guildLinks('g2')).toHaveLength(1);
  });

  it('linking methods: both allowed until changed; a change keeps the other', async () => {
    expect(await store.links.linkingMethods('g1')).toEqual({ credentials: true, approval: true });
    expect(await store.links.setLinkingMethods('g1', { approval: false })).toEqual({
      credentials: true,
      approval: false,
    });
    expect(await store.links.setLinkingMethods('g1', { credentials: false })).toEqual({
      credentials: false,
      approval: false,
    });
    expect(await store.links.linkingMethods('g1')).toEqual({ credentials: false, approval: false });
    expect(await store.links.linkingMethods('g2')).toEqual({ credentials: true, approval: true });
  });

  it('link requests: created pending, listed oldest first, dropped only while pending, decided once', async () => {
    const first = await store.links.createLinkRequest({ guildId: 'g1', userId: 'u1', personId: 'p1', locale: 'sv' });
    expect(first).toEqual({
      id: expect.any(Number),
      guildId: 'g1',
      userId: 'u1',
      personId: 'p1',
      locale: 'sv',
      state: 'pending',
      decidedBy: null,
      createdAt: iso(),
      decidedAt: null,
    });
    advance();
    const second = await store.links.createLinkRequest({ guildId: 'g1', userId: 'u1', personId: 'p2', locale: 'sv' });
    const third = await store.links.createLinkRequest({ guildId: 'g1', userId: 'u1', personId: 'p3', locale: 'sv' });
    expect(second.id).toBeGreaterThan(first.id);
    expect((await store.links.pendingLinkRequests('g1', 'u1')).map((r) => r.id)).toEqual([
      first.id,
      second.id,
      third.id,
    ]);
    expect(await store.links.linkRequest(first.id)).toEqual(first);
    expect(await store.links.linkRequest(first.id + 1000)).toBeNull();

    const decided = advance();
    expect(await store.links.decideLinkRequest(first.id, true, 'admin1')).toBe(true);
    expect(await store.links.decideLinkRequest(first.id, false, 'admin2')).toBe(false);
    expect(await store.links.linkRequest(first.id)).toMatchObject({
      state: 'approved',
      decidedBy: 'admin1',
      decidedAt: decided,
    });
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([
      { personId: 'p1', isDefault: true, method: 'approval', linkedAt: decided },
    ]);
    expect(await store.links.decideLinkRequest(second.id, false, 'admin1')).toBe(true);
    expect((await store.links.linkRequest(second.id))!.state).toBe('denied');
    expect(await store.links.linkedPersons('g1', 'u1')).toHaveLength(1);

    await store.links.dropLinkRequest(first.id);
    await store.links.dropLinkRequest(third.id);
    expect(await store.links.linkRequest(first.id)).not.toBeNull();
    expect(await store.links.linkRequest(third.id)).toBeNull();
    expect(await store.links.pendingLinkRequests('g1', 'u1')).toEqual([]);
  });

  // --- audit ---

  it('audit: newest first with a limit; recent actions counted since a time, with the oldest', async () => {
    await store.audit.audit({ guildId: 'g1', actorId: 'u1', action: 'login-link' });
    advance(MINUTE);
    await store.audit.audit({
      guildId: 'g1',
      actorId: 'u1',
      subjectId: 'u2',
      personId: 'p2',
      action: 'link',
      detail: 'by admin',
    });
    advance(MINUTE);
    await store.audit.audit({ guildId: 'g1', actorId: 'u1', action: 'login-link' });
    await store.audit.audit({ guildId: 'g2', actorId: 'u1', action: 'login-link' });
    const log = await store.audit.auditLog('g1');
    expect(log.map((e) => e.action)).toEqual(['login-link', 'link', 'login-link']);
    expect(log[1]).toEqual({
      actorId: 'u1',
      subjectId: 'u2',
      personId: 'p2',
      action: 'link',
      detail: 'by admin',
      at: iso(START + MINUTE),
    });
    expect(await store.audit.auditLog('g1', 1)).toHaveLength(1);
    expect(await store.audit.recentActions('g1', 'u1', 'login-link', new Date(START))).toEqual({
      count: 2,
      oldest: iso(START),
    });
    expect(await store.audit.recentActions('g1', 'u1', 'login-link', new Date(START + 1))).toEqual({
      count: 1,
      oldest: iso(START + 2 * MINUTE),
    });
    expect(await store.audit.recentActions('g1', 'u9', 'login-link', new Date(START))).toEqual({
      count: 0,
      oldest: null,
    });
  });

  // --- throttles ---

  it('throttles: a limit per window, given back, checked without recording, sliding with the clock', async () => {
    const window = 10 * MINUTE;
    const attempts = [];
    for (let i = 0; i < 3; i++) {
      attempts.push(await store.throttles.takeThrottle('login-link', 'u1', 3, window));
      advance(MINUTE);
    }
    expect(attempts.map((a) => a.allowed)).toEqual([true, true, true]);
    expect(new Set(attempts.map((a) => a.attempt)).size).toBe(3);
    const refused = await store.throttles.takeThrottle('login-link', 'u1', 3, window);
    expect(refused).toEqual({ allowed: false, retryAt: new Date(START + window), attempt: null });
    expect(await store.throttles.throttled('login-link', 'u1', 3, window)).toEqual({
      limited: true,
      retryAt: new Date(START + window),
    });
    // Other subjects and scopes count apart.
    expect((await store.throttles.takeThrottle('login-link', 'u2', 3, window)).allowed).toBe(true);
    expect((await store.throttles.takeThrottle('link-failure', 'u1', 3, window)).allowed).toBe(true);

    await store.throttles.giveBackThrottle('login-link', 'u1', attempts[2]!.attempt!);
    // The id with another subject gives nothing back.
    await store.throttles.giveBackThrottle('login-link', 'u2', attempts[1]!.attempt!);
    expect(await store.throttles.throttled('login-link', 'u1', 3, window)).toEqual({ limited: false, retryAt: null });
    expect((await store.throttles.takeThrottle('login-link', 'u1', 3, window)).allowed).toBe(true);
    expect((await store.throttles.takeThrottle('login-link', 'u1', 3, window)).allowed).toBe(false);

    // The oldest attempt leaves the window: one more is allowed.
    time = START + window + 1;
    expect((await store.throttles.takeThrottle('login-link', 'u1', 3, window)).allowed).toBe(true);
    time = START + 3 * window;
    expect(await store.throttles.pruneThrottles(window)).toBeGreaterThan(0);
    expect(await store.throttles.pruneThrottles(window)).toBe(0);
  });

  // --- departures ---

  it('departures: recorded once with the first time, cancelled, listed oldest first', async () => {
    expect(await store.departures.recordGuildDeparture('g2')).toBe(true);
    advance();
    expect(await store.departures.recordGuildDeparture('g1')).toBe(true);
    expect(await store.departures.recordGuildDeparture('g2')).toBe(false);
    expect(await store.departures.guildDepartures()).toEqual([
      { guildId: 'g2', leftAt: iso(START) },
      { guildId: 'g1', leftAt: iso(START + 1_000) },
    ]);
    expect(await store.departures.cancelGuildDeparture('g2')).toBe(true);
    expect(await store.departures.cancelGuildDeparture('g2')).toBe(false);
    expect(await store.departures.guildDepartures()).toEqual([{ guildId: 'g1', leftAt: iso(START + 1_000) }]);
  });

  // --- people ---

  it("people: the servers held, a server's members, with a locale when known", async () => {
    await store.servers.setChannel('g3', 'results', 'c');
    await store.links.linkPerson('g1', 'u1', 'p1', 'admin');
    await store.links.createLinkRequest({ guildId: 'g1', userId: 'u2', personId: 'p2', locale: 'sv' });
    const decided = await store.links.createLinkRequest({ guildId: 'g1', userId: 'u4', personId: 'p4', locale: 'fi' });
    await store.links.decideLinkRequest(decided.id, false, 'admin');
    await store.subscriptions.set('g1', 'u3', { starts: true, results: false, locale: 'nb', resume: true }, []);
    await store.ledger.seed('g2', 'results', 'c', [{ itemKey: 'i', contentHash: 'h' }]);
    expect(await store.people.knownGuildIds()).toEqual(['g1', 'g2', 'g3']);
    expect(await store.people.memberIds('g1')).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(await store.people.guildMembersHeld('g1')).toEqual([
      { userId: 'u1', locale: null },
      { userId: 'u2', locale: 'sv' },
      { userId: 'u3', locale: 'nb' },
    ]);
  });

  it('people: forgetting a user everywhere, their decisions kept without their name', async () => {
    await store.links.linkPerson('g1', 'u1', 'p1', 'credentials');
    await store.links.linkPerson('g2', 'u1', 'p1', 'admin');
    await store.links.linkPerson('g1', 'u2', 'p2', 'admin');
    await store.links.createLinkRequest({ guildId: 'g1', userId: 'u1', personId: 'p3', locale: 'sv' });
    const byU1 = await store.links.createLinkRequest({ guildId: 'g1', userId: 'u2', personId: 'p4', locale: 'sv' });
    await store.links.decideLinkRequest(byU1.id, false, 'u1');
    await store.audit.audit({ guildId: 'g1', actorId: 'u1', action: 'link' });
    await store.audit.audit({ guildId: 'g2', actorId: 'u2', subjectId: 'u1', action: 'link' });
    await store.audit.audit({ guildId: 'g1', actorId: 'u2', action: 'link' });
    await store.subscriptions.set('g1', 'u1', { starts: true, results: true, locale: 'sv', resume: true }, []);
    await store.subscriptions.set('g2', 'u1', { starts: true, results: false, locale: 'sv', resume: true }, []);
    await store.subscriptions.set('g1', 'u2', { starts: true, results: false, locale: 'sv', resume: true }, []);
    for (const guild of ['g1', 'g2']) {
      await store.ledger.seed(guild, 'personal:u1:starts:p1', 'dm', [{ itemKey: 'i', contentHash: 'h' }]);
      await store.ledger.seed(guild, 'personal:u2:starts:p2', 'dm', [{ itemKey: 'i', contentHash: 'h' }]);
    }

    expect(await store.people.forgetUser('u1', 'personal:u1:')).toEqual({
      links: 2,
      requests: 1,
      auditEntries: 2,
      subscriptions: 2,
    });
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    expect(await store.links.linkRequest(byU1.id)).toMatchObject({ state: 'denied', decidedBy: null });
    expect((await store.audit.auditLog('g1')).map((e) => e.actorId)).toEqual(['u2']);
    expect(await store.audit.auditLog('g2')).toEqual([]);
    expect(await store.subscriptions.get('g1', 'u1')).toBeNull();
    expect(await store.subscriptions.get('g1', 'u2')).not.toBeNull();
    for (const guild of ['g1', 'g2']) {
      expect(await store.ledger.startedFeeds(guild, 'personal:')).toEqual(['personal:u2:starts:p2']);
    }
  });

  it('people: forgetting a server takes everything of it, its departure too, and nothing of others', async () => {
    const fill = async (guild: string) => {
      await store.servers.setApiKey(guild, API_KEY, { id: '1', name: 'OK' });
      await store.servers.setChannel(guild, 'results', 'c');
      await store.links.linkPerson(guild, 'u1', 'p1', 'admin');
      await store.links.createLinkRequest({ guildId: guild, userId: 'u2', personId: 'p2', locale: 'sv' });
      await store.links.setLinkingMethods(guild, { approval: false });
      await store.audit.audit({ guildId: guild, actorId: 'u1', action: 'link' });
      await store.ledger.seed(guild, 'results', 'c', [{ itemKey: 'i', contentHash: 'h' }]);
      await store.ledger.claim({ guildId: guild, feed: 'results', itemKey: 'j' }, 'me', MINUTE, () => true);
      await store.feedSettings.update(guild, 'results', () => ({ ...OFF, enabled: true }));
      await store.subscriptions.set(guild, 'u3', { starts: true, results: true, locale: 'sv', resume: true }, []);
      await store.departures.recordGuildDeparture(guild);
    };
    await fill('g1');
    await fill('g2');
    await store.people.forgetGuild('g1');
    expect(await store.people.knownGuildIds()).toEqual(['g2']);
    expect(await store.servers.guildSettings('g1')).toBeNull();
    expect(await store.links.linkingMethods('g1')).toEqual({ credentials: true, approval: true });
    expect(await store.departures.guildDepartures()).toEqual([{ guildId: 'g2', leftAt: iso() }]);
    // The claim went too: another owner may claim at once.
    expect(
      await store.ledger.claim({ guildId: 'g1', feed: 'results', itemKey: 'j' }, 'other', MINUTE, () => true),
    ).toBe(true);
    expect(await store.servers.apiKey('g2')).toBe(API_KEY);
    expect(await store.people.memberIds('g2')).toEqual(['u1', 'u2', 'u3']);
  });

  // --- feed settings ---

  const OFF: FeedSettingsRow = { enabled: false, pausedReason: null, pausedAt: null, roleId: null, options: '{}' };

  it('feed settings: none until written; update reads what is stored and writes what it returns', async () => {
    expect(await store.feedSettings.get('g1', 'results')).toBeNull();
    const seen: Array<FeedSettingsRow | null> = [];
    const first = await store.feedSettings.update('g1', 'results', (current) => {
      seen.push(current);
      return { ...OFF, enabled: true, roleId: 'r1', options: '{"threads":true}' };
    });
    expect(first).toEqual({ ...OFF, enabled: true, roleId: 'r1', options: '{"threads":true}' });
    await store.feedSettings.update('g1', 'results', (current) => {
      seen.push(current);
      return { ...current!, pausedReason: 'admin', pausedAt: iso() };
    });
    expect(seen).toEqual([null, first]);
    await store.feedSettings.update('g1', 'events', () => OFF);
    await store.feedSettings.update('g2', 'activities', () => ({ ...OFF, enabled: true }));
    expect(await store.feedSettings.get('g1', 'results')).toEqual({
      ...first,
      pausedReason: 'admin',
      pausedAt: iso(),
    });
    const all = await store.feedSettings.all('g1');
    expect(all.map((r) => [r.feed, r.enabled]).sort()).toEqual([
      ['events', false],
      ['results', true],
    ]);
    expect(await store.feedSettings.guildsWithFeeds()).toEqual(['g1', 'g2']);
    await store.feedSettings.update('g2', 'activities', (current) => ({ ...current!, enabled: false }));
    expect(await store.feedSettings.guildsWithFeeds()).toEqual(['g1']);
  });

  // --- subscriptions ---

  it('subscriptions: the day-before reminder alone keeps a member subscribed; all off deletes the row', async () => {
    const only = { starts: false, results: false, tomorrow: true, locale: 'sv', resume: true };
    expect(await store.subscriptions.set('g1', 'u1', only, [])).toMatchObject({ tomorrow: true, starts: false });
    expect((await store.subscriptions.active('g1')).map((s) => s.userId)).toEqual(['u1']);
    expect(await store.subscriptions.guildsWithSubscribers()).toEqual(['g1']);
    // Left out, the reminder is off.
    const starts = { starts: true, results: false, locale: 'sv', resume: false };
    expect(await store.subscriptions.set('g1', 'u1', starts, [])).toMatchObject({ tomorrow: false, starts: true });
    expect(await store.subscriptions.set('g1', 'u1', { ...only, tomorrow: false }, [])).toBeNull();
    expect(await store.subscriptions.get('g1', 'u1')).toBeNull();
    expect(await store.subscriptions.guildsWithSubscribers()).toEqual([]);
  });

  it('subscriptions: the live finish DM alone keeps a member subscribed; left out it is off', async () => {
    const only = { starts: false, results: false, live: true, locale: 'sv', resume: true };
    expect(await store.subscriptions.set('g1', 'u1', only, [])).toMatchObject({ live: true, tomorrow: false });
    expect((await store.subscriptions.active('g1')).map((s) => s.userId)).toEqual(['u1']);
    expect(await store.subscriptions.guildsWithSubscribers()).toEqual(['g1']);
    const starts = { starts: true, results: false, locale: 'sv', resume: false };
    expect(await store.subscriptions.set('g1', 'u1', starts, [])).toMatchObject({ live: false, starts: true });
    expect(await store.subscriptions.set('g1', 'u1', { ...only, live: false }, [])).toBeNull();
  });

  it('subscriptions: set, paused, resumed, active only when on and not paused', async () => {
    expect(await store.subscriptions.get('g1', 'u1')).toBeNull();
    const made = await store.subscriptions.set(
      'g1',
      'u1',
      { starts: true, results: false, locale: 'sv', resume: true },
      [],
    );
    expect(made).toEqual({
      guildId: 'g1',
      userId: 'u1',
      starts: true,
      results: false,
      tomorrow: false,
      live: false,
      locale: 'sv',
      dmChannelId: null,
      pausedReason: null,
      pausedAt: null,
      createdAt: iso(),
      updatedAt: iso(),
    });
    await store.subscriptions.set('g1', 'u2', { starts: false, results: true, locale: 'nb', resume: true }, []);
    await store.subscriptions.set('g2', 'u1', { starts: true, results: true, locale: 'sv', resume: true }, []);
    await store.subscriptions.setDmChannel('g1', 'u1', 'dm1');
    const paused = advance();
    expect(await store.subscriptions.pause('g1', 'u1', 'dm-unavailable')).toBe(true);
    expect(await store.subscriptions.pause('g1', 'u1', 'dms-closed')).toBe(false);
    expect(await store.subscriptions.pause('g1', 'nobody', 'dms-closed')).toBe(false);
    expect(await store.subscriptions.get('g1', 'u1')).toMatchObject({
      pausedReason: 'dm-unavailable',
      pausedAt: paused,
      dmChannelId: 'dm1',
    });
    expect((await store.subscriptions.active('g1')).map((s) => s.userId)).toEqual(['u2']);

    // Changing the language without resuming keeps the pause; resuming clears it and the unusable channel.
    await store.subscriptions.set('g1', 'u1', { starts: true, results: false, locale: 'en', resume: false }, []);
    expect(await store.subscriptions.get('g1', 'u1')).toMatchObject({ locale: 'en', pausedReason: 'dm-unavailable' });
    const resumed = advance();
    expect(
      await store.subscriptions.set('g1', 'u1', { starts: true, results: true, locale: 'en', resume: true }, []),
    ).toMatchObject({
      results: true,
      pausedReason: null,
      pausedAt: null,
      dmChannelId: null,
      createdAt: iso(START),
      updatedAt: resumed,
    });
    // A pause for closed DMs keeps the channel when resumed.
    await store.subscriptions.setDmChannel('g1', 'u2', 'dm2');
    await store.subscriptions.pause('g1', 'u2', 'dms-closed');
    await store.subscriptions.set('g1', 'u2', { starts: false, results: true, locale: 'nb', resume: true }, []);
    expect(await store.subscriptions.get('g1', 'u2')).toMatchObject({ dmChannelId: 'dm2', pausedReason: null });
    expect((await store.subscriptions.active('g1')).map((s) => s.userId)).toEqual(['u1', 'u2']);
    await store.subscriptions.pause('g2', 'u1', 'dms-closed');
    expect(await store.subscriptions.guildsWithSubscribers()).toEqual(['g1']);
  });

  it('subscriptions: kinds turned off forget their ledger feeds in the same step; all off deletes the row', async () => {
    await store.subscriptions.set('g1', 'u1', { starts: true, results: true, locale: 'sv', resume: true }, []);
    for (const feed of ['personal:u1:starts:p1', 'personal:u1:results:p1']) {
      await store.ledger.seed('g1', feed, 'dm', [{ itemKey: 'i', contentHash: 'h' }]);
      await store.ledger.seed('g2', feed, 'dm', [{ itemKey: 'i', contentHash: 'h' }]);
    }
    await store.subscriptions.set('g1', 'u1', { starts: false, results: true, locale: 'sv', resume: false }, [
      'personal:u1:starts:',
    ]);
    expect(await store.ledger.startedFeeds('g1', 'personal:u1:')).toEqual(['personal:u1:results:p1']);
    expect(await store.ledger.rows('g1', 'personal:u1:starts:p1')).toEqual([]);
    expect(await store.ledger.startedFeeds('g2', 'personal:u1:')).toHaveLength(2);
    expect(
      await store.subscriptions.set('g1', 'u1', { starts: false, results: false, locale: 'sv', resume: false }, [
        'personal:u1:starts:',
        'personal:u1:results:',
      ]),
    ).toBeNull();
    expect(await store.subscriptions.get('g1', 'u1')).toBeNull();
    expect(await store.ledger.startedFeeds('g1', 'personal:u1:')).toEqual([]);
  });

  it("subscriptions: forgetting one member's or a server's, with their ledger feeds", async () => {
    for (const user of ['u1', 'u2']) {
      await store.subscriptions.set('g1', user, { starts: true, results: true, locale: 'sv', resume: true }, []);
      await store.ledger.seed('g1', `personal:${user}:starts:p`, 'dm', [{ itemKey: 'i', contentHash: 'h' }]);
    }
    await store.subscriptions.set('g2', 'u1', { starts: true, results: true, locale: 'sv', resume: true }, []);
    expect(await store.subscriptions.forget('g1', 'u1', 'personal:u1:')).toBe(1);
    expect(await store.ledger.startedFeeds('g1', 'personal:')).toEqual(['personal:u2:starts:p']);
    expect(await store.subscriptions.forget('g1', null, 'personal:')).toBe(1);
    expect(await store.ledger.startedFeeds('g1', 'personal:')).toEqual([]);
    expect(await store.subscriptions.active('g1')).toEqual([]);
    expect(await store.subscriptions.active('g2')).toHaveLength(1);
  });

  // --- the ledger ---

  const ITEM = { guildId: 'g1', feed: 'results', itemKey: 'event-1' };

  // --- leases and the member sweep's progress ---

  it('leases: free, held, renewed by their owner, taken once expired, released only by their owner', async () => {
    expect(await store.leases.holder('club:a')).toBeNull();
    expect(await store.leases.acquire('club:a', 'p1', MINUTE)).toBe(true);
    expect(await store.leases.holder('club:a')).toEqual({ owner: 'p1', expiresAt: iso(time + MINUTE) });
    expect(await store.leases.acquire('club:a', 'p2', MINUTE)).toBe(false);
    advance(30_000);
    // Its owner renews it: the expiry moves on.
    expect(await store.leases.acquire('club:a', 'p1', MINUTE)).toBe(true);
    expect(await store.leases.holder('club:a')).toEqual({ owner: 'p1', expiresAt: iso(time + MINUTE) });
    advance(MINUTE - 1);
    expect(await store.leases.acquire('club:a', 'p2', MINUTE)).toBe(false);
    advance(1);
    // Expired: nobody holds it, and another owner takes it.
    expect(await store.leases.holder('club:a')).toBeNull();
    expect(await store.leases.acquire('club:a', 'p2', MINUTE)).toBe(true);
    await store.leases.release('club:a', 'p1');
    expect((await store.leases.holder('club:a'))?.owner).toBe('p2');
    await store.leases.acquire('shard:0', 'p2', MINUTE);
    await store.leases.acquire('shard:1', 'p1', MINUTE);
    await store.leases.acquire('shards', 'p1', MINUTE);
    expect(await store.leases.held('shard:')).toEqual([
      { name: 'shard:0', owner: 'p2', expiresAt: iso(time + MINUTE) },
      { name: 'shard:1', owner: 'p1', expiresAt: iso(time + MINUTE) },
    ]);
    await store.leases.release('club:a', 'p2');
    expect(await store.leases.holder('club:a')).toBeNull();
    expect(await store.leases.acquire('club:a', 'p1', MINUTE)).toBe(true);
  });

  it("the member sweep's progress: started once per interval, per server, forgotten with the server", async () => {
    const DAY = 24 * 60 * MINUTE;
    expect(await store.sweeps.sweptAt('g1')).toBeNull();
    expect(await store.sweeps.startSweep('g1', now(), DAY)).toBe(true);
    expect(await store.sweeps.sweptAt('g1')).toBe(iso());
    expect(await store.sweeps.startSweep('g2', now(), DAY)).toBe(true);
    advance(DAY - 1);
    expect(await store.sweeps.startSweep('g1', now(), DAY)).toBe(false);
    advance(1);
    expect(await store.sweeps.startSweep('g1', now(), DAY)).toBe(true);
    expect(await store.sweeps.sweptAt('g1')).toBe(iso());
    await store.servers.setChannel('g1', 'results', 'c');
    await store.people.forgetGuild('g1');
    expect(await store.sweeps.sweptAt('g1')).toBeNull();
    expect(await store.sweeps.sweptAt('g2')).toBe(iso(START));
  });

  // --- the season and the cups ---

  it("the season: a year's look records the events found and how far it came; results kept once asked", async () => {
    const src = 'https://eventor.example/api 321';
    expect(await store.season.scan('g1', src, 2026)).toBeNull();
    await store.season.recordScan('g1', src, 2026, '2026-03-10', [
      { eventId: '2', firstDay: '2026-03-07', event: '{"n":2}' },
      { eventId: '1', firstDay: '2026-02-01', event: '{"n":1}' },
    ]);
    expect(await store.season.scan('g1', src, 2026)).toEqual({ scannedThrough: '2026-03-10', scannedAt: iso() });
    expect(await store.season.scan('g1', src, 2025)).toBeNull();
    expect(await store.season.events('g1', src, '2026-01-01', '2026-12-31')).toEqual([
      { eventId: '1', firstDay: '2026-02-01', event: '{"n":1}', races: null, fetchedAt: null, settled: false },
      { eventId: '2', firstDay: '2026-03-07', event: '{"n":2}', races: null, fetchedAt: null, settled: false },
    ]);
    const asked = advance();
    expect(await store.season.putResults('g1', src, '1', '[1]', true)).toBe(true);
    expect(await store.season.putResults('g1', src, '3', '[3]', false)).toBe(false);
    // Found again: the event's text and day change, its results stay.
    advance();
    await store.season.recordScan('g1', src, 2026, '2026-03-12', [
      { eventId: '1', firstDay: '2026-02-02', event: '{"n":11}' },
    ]);
    expect(await store.season.events('g1', src, '2026-02-02', '2026-02-02')).toEqual([
      { eventId: '1', firstDay: '2026-02-02', event: '{"n":11}', races: '[1]', fetchedAt: asked, settled: true },
    ]);
    expect(await store.season.events('g2', src, '2026-01-01', '2026-12-31')).toEqual([]);
  });

  it("the season: a look for another source (the server moved club) forgets the old club's rows; forgetting a server takes all", async () => {
    const old = 'https://eventor.example/api 321';
    const moved = 'https://eventor.example/api 400';
    await store.season.recordScan('g1', old, 2026, '2026-03-10', [
      { eventId: '1', firstDay: '2026-02-01', event: '{}' },
    ]);
    await store.season.recordScan('g2', old, 2026, '2026-03-10', [
      { eventId: '1', firstDay: '2026-02-01', event: '{}' },
    ]);
    await store.season.recordScan('g1', moved, 2026, '2026-03-10', [
      { eventId: '9', firstDay: '2026-02-01', event: '{}' },
    ]);
    expect(await store.season.events('g1', old, '2026-01-01', '2026-12-31')).toEqual([]);
    expect(await store.season.scan('g1', old, 2026)).toBeNull();
    expect((await store.season.events('g1', moved, '2026-01-01', '2026-12-31')).map((e) => e.eventId)).toEqual(['9']);
    expect((await store.season.events('g2', old, '2026-01-01', '2026-12-31')).map((e) => e.eventId)).toEqual(['1']);
    await store.cups.create('g1', { name: 'Cupen', nameKey: 'cupen', rules: '{}' }, 5);
    await store.people.forgetGuild('g1');
    expect(await store.season.events('g1', moved, '2026-01-01', '2026-12-31')).toEqual([]);
    expect(await store.season.scan('g1', moved, 2026)).toBeNull();
    expect(await store.cups.list('g1')).toEqual([]);
    expect(await store.people.knownGuildIds()).toEqual(['g2']);
  });

  it('cups: created unless the name is taken or the server is full, listed by name, changed, deleted', async () => {
    const first = await store.cups.create('g1', { name: 'Ungdomscupen', nameKey: 'ungdomscupen', rules: '{"a":1}' }, 2);
    expect(first).toEqual({
      id: expect.any(Number),
      guildId: 'g1',
      name: 'Ungdomscupen',
      rules: '{"a":1}',
      postStandings: false,
      createdAt: iso(),
      updatedAt: iso(),
    });
    const cup = first as CupRow;
    expect(await store.cups.create('g1', { name: 'UNGDOMSCUPEN', nameKey: 'ungdomscupen', rules: '{}' }, 2)).toBe(
      'exists',
    );
    const second = (await store.cups.create('g1', { name: 'Argus', nameKey: 'argus', rules: '{}' }, 2)) as CupRow;
    expect(await store.cups.create('g1', { name: 'Tredje', nameKey: 'tredje', rules: '{}' }, 2)).toBe('full');
    expect(await store.cups.create('g2', { name: 'Argus', nameKey: 'argus', rules: '{}' }, 2)).toMatchObject({
      guildId: 'g2',
    });
    expect((await store.cups.list('g1')).map((c) => c.name)).toEqual(['Argus', 'Ungdomscupen']);
    expect(await store.cups.get('g2', cup.id)).toBeNull();

    const later = advance();
    expect(await store.cups.update('g1', cup.id, { name: 'Argus', nameKey: 'argus', rules: '{}' })).toBe('exists');
    expect(
      await store.cups.update('g1', cup.id, { name: 'Juniorcupen', nameKey: 'juniorcupen', rules: '{"b":2}' }),
    ).toEqual({
      ...cup,
      name: 'Juniorcupen',
      rules: '{"b":2}',
      updatedAt: later,
    });
    // Whether its standings are posted: set when given, kept when not.
    const posted = { name: 'Juniorcupen', nameKey: 'juniorcupen', rules: '{"b":2}' };
    expect(await store.cups.update('g1', cup.id, { ...posted, postStandings: true })).toMatchObject({
      postStandings: true,
    });
    expect(await store.cups.update('g1', cup.id, posted)).toMatchObject({ postStandings: true });
    expect(await store.cups.update('g1', cup.id, { ...posted, postStandings: false })).toMatchObject({
      postStandings: false,
    });
    expect(
      await store.cups.create('g2', { name: 'Posted', nameKey: 'posted', rules: '{}', postStandings: true }, 2),
    ).toMatchObject({ postStandings: true });
    expect(await store.cups.update('g2', cup.id, { name: 'X', nameKey: 'x', rules: '{}' })).toBe('gone');
    expect(await store.cups.delete('g2', second.id)).toBe(false);
    expect(await store.cups.delete('g1', second.id)).toBe(true);
    expect(await store.cups.delete('g1', second.id)).toBe(false);
    expect(await store.cups.update('g1', second.id, { name: 'Argus', nameKey: 'argus', rules: '{}' })).toBe('gone');
    expect((await store.cups.list('g1')).map((c) => c.name)).toEqual(['Juniorcupen']);
  });

  // --- race day, live ---

  it("live races: matching records a race, keeps an admin's choice, and a new competition makes the board live again", async () => {
    const race = { guildId: 'g1', eventId: '30024', raceId: '4001', raceDay: '2026-03-01', race: '{"n":1}' };
    const uncertain = { ...race, competitionId: null, how: 'uncertain' as const, candidates: '[50001,50002]' };
    expect(await store.live.putMatch(uncertain)).toEqual({
      ...uncertain,
      finalAt: null,
      resultsUrl: null,
      updatedAt: iso(),
    });
    expect(await store.live.followed('2026-03-01', '2026-03-01')).toEqual([]);
    advance();
    const found = await store.live.putMatch({ ...race, competitionId: 50001, how: 'search', candidates: '[]' });
    expect(found).toMatchObject({ competitionId: 50001, how: 'search', finalAt: null });
    expect(await store.live.markFinal('g1', '30024', '4001', null)).toBe(true);
    const finalAt = iso();
    advance();
    // A link given later replaces none; the time it turned final stays.
    expect(await store.live.markFinal('g1', '30024', '4001', 'https://discord.com/channels/1/2/3')).toBe(true);
    expect(await store.live.race('g1', '30024', '4001')).toMatchObject({
      finalAt,
      resultsUrl: 'https://discord.com/channels/1/2/3',
    });
    expect(await store.live.markFinal('g1', 'nope', '1', null)).toBe(false);
    // The same competition found again: still final.
    await store.live.putMatch({ ...race, race: '{"n":2}', competitionId: 50001, how: 'search', candidates: '[]' });
    expect(await store.live.race('g1', '30024', '4001')).toMatchObject({ race: '{"n":2}', finalAt });
    // An admin's choice: live again, and kept against later matching.
    const chosen = await store.live.choose(race, 50002);
    expect(chosen).toMatchObject({ competitionId: 50002, how: 'admin', finalAt: null, resultsUrl: null });
    await store.live.putMatch({ ...race, race: '{"n":3}', competitionId: 50001, how: 'link', candidates: '[]' });
    expect(await store.live.race('g1', '30024', '4001')).toMatchObject({
      race: '{"n":3}',
      competitionId: 50002,
      how: 'admin',
    });
    // A race not yet known, chosen by an admin.
    await store.live.choose({ ...race, guildId: 'g2' }, 50003);
    expect((await store.live.followed('2026-03-01', '2026-03-01')).map((r) => [r.guildId, r.competitionId])).toEqual([
      ['g1', 50002],
      ['g2', 50003],
    ]);
    expect((await store.live.races('g1', '2026-02-28', '2026-03-02')).map((r) => r.eventId)).toEqual(['30024']);
    expect(await store.live.races('g1', '2026-03-02', '2026-03-03')).toEqual([]);
  });

  it('live snapshots: replaced per competition, read by another process, pruned with the races of past days', async () => {
    expect(await store.live.snapshot(50001)).toBeNull();
    await store.live.putSnapshot(50001, '{"a":1}', null);
    advance();
    await store.live.putSnapshot(50001, '{"a":2}', iso());
    const other = await factory.again(store);
    expect(await other.live.snapshot(50001)).toEqual({
      competitionId: 50001,
      state: '{"a":2}',
      readAt: iso(),
      changedAt: iso(),
    });
    await store.live.choose({ guildId: 'g1', eventId: '1', raceId: '2', raceDay: '2026-02-28', race: '{}' }, 50001);
    await store.live.choose({ guildId: 'g1', eventId: '1', raceId: '3', raceDay: '2026-03-01', race: '{}' }, 50001);
    expect(await store.live.prune('2026-03-01')).toBe(1);
    expect(await store.live.prune('2026-03-02')).toBe(2);
    expect(await store.live.snapshot(50001)).toBeNull();
  });

  it('live races go with their server', async () => {
    await store.live.choose({ guildId: 'g1', eventId: '1', raceId: '2', raceDay: '2026-03-01', race: '{}' }, 50001);
    await store.live.choose({ guildId: 'g2', eventId: '1', raceId: '2', raceDay: '2026-03-01', race: '{}' }, 50001);
    expect(await store.people.knownGuildIds()).toEqual(['g1', 'g2']);
    await store.people.forgetGuild('g1');
    expect((await store.live.followed('2026-03-01', '2026-03-01')).map((r) => r.guildId)).toEqual(['g2']);
  });

  it('ledger claims: free, held by a live owner, taken from a gone or expired one, renewed, released', async () => {
    const alive = () => true;
    expect(await store.ledger.claim(ITEM, 'a', MINUTE, alive)).toBe(true);
    expect(await store.ledger.claim(ITEM, 'b', MINUTE, alive)).toBe(false);
    // The owner asked about is the holder.
    const asked: string[] = [];
    expect(await store.ledger.claim(ITEM, 'b', MINUTE, (owner) => (asked.push(owner), true))).toBe(false);
    expect(asked).toEqual(['a']);
    // Its own claim an owner may renew.
    expect(await store.ledger.claim(ITEM, 'a', MINUTE, alive)).toBe(true);
    // A holder known to be gone loses it at once.
    expect(await store.ledger.claim(ITEM, 'b', MINUTE, () => false)).toBe(true);
    expect(await store.ledger.claim(ITEM, 'a', MINUTE, alive)).toBe(false);
    // Past the lease, on the store's clock, anyone takes it.
    time += MINUTE;
    expect(await store.ledger.claim(ITEM, 'a', MINUTE, alive)).toBe(true);
    // Releasing another's claim does nothing; releasing one's own frees it.
    await store.ledger.release(ITEM, 'b');
    expect(await store.ledger.claim(ITEM, 'b', MINUTE, alive)).toBe(false);
    await store.ledger.release(ITEM, 'a');
    expect(await store.ledger.claim(ITEM, 'b', MINUTE, alive)).toBe(true);
    // Claims are per item.
    expect(await store.ledger.claim({ ...ITEM, itemKey: 'event-2' }, 'a', MINUTE, alive)).toBe(true);
  });

  it('ledger: seeding, intending with covered items, posting, and what is unfinished', async () => {
    expect(await store.ledger.feedStartedAt('g1', 'results')).toBeNull();
    await store.ledger.seed('g1', 'results', 'c1', [
      { itemKey: 'event-1', contentHash: 'h1' },
      { itemKey: 'event-0', contentHash: 'h0' },
    ]);
    const started = iso();
    expect(await store.ledger.feedStartedAt('g1', 'results')).toBe(started);
    advance();
    // A second seed keeps existing rows and the start.
    await store.ledger.seed('g1', 'results', 'c2', [
      { itemKey: 'event-1', contentHash: 'changed' },
      { itemKey: 'event-2', contentHash: 'h2' },
    ]);
    expect(await store.ledger.feedStartedAt('g1', 'results')).toBe(started);
    const rows = await store.ledger.rows('g1', 'results');
    expect(rows.map((r) => [r.itemKey, r.contentHash, r.state, r.channelId])).toEqual([
      ['event-0', 'h0', 'seeded', 'c1'],
      ['event-1', 'h1', 'seeded', 'c1'],
      ['event-2', 'h2', 'seeded', 'c2'],
    ]);
    expect(rows[0]).toEqual({
      guildId: 'g1',
      feed: 'results',
      itemKey: 'event-0',
      contentHash: 'h0',
      channelId: 'c1',
      messageId: null,
      state: 'seeded',
      nonce: null,
      pendingPayload: null,
      createdAt: started,
      updatedAt: started,
    });

    const intended = advance();
    await store.ledger.intend({ ...ITEM, itemKey: 'summary' }, 'c1', 'hs', 'nonce-1', '{"content":"x"}', [
      { itemKey: 'event-3', contentHash: 'h3' },
      { itemKey: 'event-0', contentHash: 'other' },
    ]);
    await store.ledger.intend(ITEM, 'c1', 'h1b', 'nonce-2', null, []);
    expect(await store.ledger.get({ ...ITEM, itemKey: 'summary' })).toMatchObject({
      state: 'posting',
      nonce: 'nonce-1',
      pendingPayload: '{"content":"x"}',
      contentHash: 'hs',
      messageId: null,
      createdAt: intended,
    });
    expect(await store.ledger.get({ ...ITEM, itemKey: 'event-3' })).toMatchObject({
      state: 'seeded',
      contentHash: 'h3',
    });
    expect(await store.ledger.get({ ...ITEM, itemKey: 'event-0' })).toMatchObject({ contentHash: 'h0' });
    expect(await store.ledger.get(ITEM)).toMatchObject({ state: 'posting', nonce: 'nonce-2', contentHash: 'h1b' });
    expect((await store.ledger.unfinished('g1', 'results')).map((r) => r.itemKey)).toEqual(['event-1', 'summary']);

    const posted = advance();
    await store.ledger.posted(ITEM, 'm1', 'h1c');
    expect(await store.ledger.get(ITEM)).toMatchObject({
      state: 'posted',
      messageId: 'm1',
      contentHash: 'h1c',
      pendingPayload: null,
      updatedAt: posted,
      createdAt: started,
    });
    expect((await store.ledger.unfinished('g1', 'results')).map((r) => r.itemKey)).toEqual(['summary']);
    await store.ledger.updateHash({ ...ITEM, itemKey: 'event-2' }, 'h2b');
    expect(await store.ledger.get({ ...ITEM, itemKey: 'event-2' })).toMatchObject({
      contentHash: 'h2b',
      state: 'seeded',
    });
    expect(await store.ledger.get({ ...ITEM, itemKey: 'missing' })).toBeNull();
  });

  it('ledger: posted elsewhere, started feeds by prefix, last runs, forgetting feeds', async () => {
    await store.ledger.seed('g1', 'results', 'c', [{ itemKey: 'e1', contentHash: 'h' }]);
    await store.ledger.seed('g2', 'results', 'c', [{ itemKey: 'e1', contentHash: 'h' }]);
    expect(await store.ledger.postedElsewhere({ guildId: 'g1', feed: 'results', itemKey: 'e1' })).toBe(false);
    await store.ledger.intend({ guildId: 'g2', feed: 'results', itemKey: 'e1' }, 'c', 'h', 'n', null, []);
    expect(await store.ledger.postedElsewhere({ guildId: 'g1', feed: 'results', itemKey: 'e1' })).toBe(true);
    expect(await store.ledger.postedElsewhere({ guildId: 'g2', feed: 'results', itemKey: 'e1' })).toBe(false);

    for (const feed of ['personal:u1:starts:p1', 'personal:u1:results:p1', 'personal:u10:starts:p1']) {
      await store.ledger.seed('g1', feed, 'dm', [{ itemKey: 'i', contentHash: 'h' }]);
      await store.ledger.claim({ guildId: 'g1', feed, itemKey: 'i' }, 'a', MINUTE, () => true);
    }
    expect(await store.ledger.startedFeeds('g1', 'personal:u1:')).toEqual([
      'personal:u1:results:p1',
      'personal:u1:starts:p1',
    ]);
    expect(await store.ledger.lastRunAt('g1', 'results')).toBeNull();
    await store.ledger.ranAt('g1', 'results', new Date(START + 5 * MINUTE));
    expect(await store.ledger.lastRunAt('g1', 'results')).toBe(iso(START + 5 * MINUTE));
    // A feed not started has nowhere to keep its last run.
    await store.ledger.ranAt('g1', 'never', new Date(START));
    expect(await store.ledger.lastRunAt('g1', 'never')).toBeNull();

    await store.ledger.forgetFeeds('g1', 'personal:u1:starts:p1', { exact: true });
    // Ordered by their bytes on every database (':' sorts after '0').
    expect(await store.ledger.startedFeeds('g1', 'personal:')).toEqual([
      'personal:u10:starts:p1',
      'personal:u1:results:p1',
    ]);
    // Its claim went with it.
    const freed = { guildId: 'g1', feed: 'personal:u1:starts:p1', itemKey: 'i' };
    expect(await store.ledger.claim(freed, 'b', MINUTE, () => true)).toBe(true);
    await store.ledger.forgetFeeds(null, 'personal:u1');
    expect(await store.ledger.startedFeeds('g1', 'personal:')).toEqual([]);
    await store.ledger.forgetFeeds(null, 'results');
    expect(await store.ledger.rows('g1', 'results')).toEqual([]);
    expect(await store.ledger.rows('g2', 'results')).toEqual([]);
  });

  // --- transactions ---

  it('a transaction across parts lands whole, or not at all when its work fails', async () => {
    await expect(
      store.transaction(async (parts) => {
        await parts.servers.setChannel('g1', 'results', 'c1');
        await parts.links.linkPerson('g1', 'u1', 'p1', 'admin');
        await parts.ledger.seed('g1', 'results', 'c1', [{ itemKey: 'e', contentHash: 'h' }]);
        // Inside, the transaction sees its own writes.
        expect(await parts.links.linkedPersons('g1', 'u1')).toHaveLength(1);
        throw new Error('the work failed half-way');
      }),
    ).rejects.toThrow('the work failed half-way');
    expect(await store.servers.guildSettings('g1')).toBeNull();
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    expect(await store.ledger.feedStartedAt('g1', 'results')).toBeNull();

    const result = await store.transaction(async (parts) => {
      await parts.servers.setChannel('g1', 'results', 'c1');
      await parts.links.linkPerson('g1', 'u1', 'p1', 'admin');
      return 'done';
    });
    expect(result).toBe('done');
    expect((await store.servers.guildSettings('g1'))!.channels).toEqual({ results: 'c1' });
    expect(await store.links.linkedPersons('g1', 'u1')).toHaveLength(1);
  });

  it('a nested transaction joins the outer one: it sees its writes and goes with its rollback', async () => {
    await expect(
      store.transaction(async (outer) => {
        await outer.links.linkPerson('g1', 'u1', 'p1', 'admin');
        const inner = await store.transaction(async (parts) => {
          expect(await parts.links.linkedPersons('g1', 'u1')).toHaveLength(1);
          await parts.audit.audit({ guildId: 'g1', actorId: 'u1', action: 'link' });
          return 'inner';
        });
        expect(inner).toBe('inner');
        expect(await outer.audit.auditLog('g1')).toHaveLength(1);
        throw new Error('outer fails after the inner one finished');
      }),
    ).rejects.toThrow('outer fails');
    expect(await store.links.linkedPersons('g1', 'u1')).toEqual([]);
    expect(await store.audit.auditLog('g1')).toEqual([]);
  });

  it('a nested transaction that fails, caught by the outer work, undoes only its own writes', async () => {
    await store.transaction(async (outer) => {
      await outer.links.linkPerson('g1', 'u1', 'p1', 'admin');
      await expect(
        store.transaction(async (parts) => {
          await parts.audit.audit({ guildId: 'g1', actorId: 'u1', action: 'link' });
          throw new Error('the inner step fails');
        }),
      ).rejects.toThrow('the inner step fails');
      await outer.departures.recordGuildDeparture('g2');
    });
    expect(await store.links.linkedPersons('g1', 'u1')).toHaveLength(1);
    expect(await store.audit.auditLog('g1')).toEqual([]);
    expect(await store.departures.guildDepartures()).toHaveLength(1);
  });

  it('another process sees a transaction only once it is committed', async () => {
    const other = await factory.again(store, { now });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const done = store.transaction(async (parts) => {
      await parts.departures.recordGuildDeparture('g1');
      written();
      await held;
    });
    await wrote;
    expect(await other.departures.guildDepartures()).toEqual([]);
    release();
    await done;
    expect(await other.departures.guildDepartures()).toEqual([{ guildId: 'g1', leftAt: iso() }]);
  });

  // --- races across processes (each store has its own connections) ---

  /** `count` stores on the one database: the first is `store`, the others as other processes. */
  const processes = async (count: number): Promise<Store[]> => {
    const all = [store];
    for (let i = 1; i < count; i++) all.push(await factory.again(store, { now }));
    return all;
  };

  it(`the ledger claim: exactly one of three processes wins each item, ${RACE_ROUNDS} rounds`, async () => {
    const racers = await processes(3);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const ref = { guildId: 'g1', feed: 'results', itemKey: `event-${round}` };
      const won = await Promise.all(racers.map((s, i) => s.ledger.claim(ref, `owner-${i}`, MINUTE, () => true)));
      expect(won.filter(Boolean), `round ${round}: ${JSON.stringify(won)}`).toHaveLength(1);
    }
    // And over an expired claim: every racer sees it free, still only one takes it.
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const ref = { guildId: 'g1', feed: 'results', itemKey: `event-${round}` };
      time += MINUTE;
      const won = await Promise.all(racers.map((s, i) => s.ledger.claim(ref, `late-${i}`, MINUTE, () => true)));
      expect(won.filter(Boolean), `expired, round ${round}: ${JSON.stringify(won)}`).toHaveLength(1);
    }
  });

  it(`a lease: exactly one of three processes takes it, free or expired, ${RACE_ROUNDS} rounds`, async () => {
    const racers = await processes(3);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const won = await Promise.all(racers.map((s, i) => s.leases.acquire(`club:${round}`, `owner-${i}`, MINUTE)));
      expect(won.filter(Boolean), `round ${round}: ${JSON.stringify(won)}`).toHaveLength(1);
    }
    for (let round = 0; round < RACE_ROUNDS; round++) {
      time += MINUTE;
      const won = await Promise.all(racers.map((s, i) => s.leases.acquire(`club:${round}`, `late-${i}`, MINUTE)));
      expect(won.filter(Boolean), `expired, round ${round}: ${JSON.stringify(won)}`).toHaveLength(1);
    }
    // And a server's daily sweep: one of three processes starts it.
    for (let round = 0; round < RACE_ROUNDS / 4; round++) {
      time += 2 * MINUTE;
      const started = await Promise.all(racers.map((s) => s.sweeps.startSweep('g1', now(), MINUTE)));
      expect(started.filter(Boolean), `sweep, round ${round}`).toHaveLength(1);
    }
  });

  it(`the throttle: never more than the limit when many attempts arrive at once, ${RACE_ROUNDS / 4} rounds`, async () => {
    const racers = await processes(3);
    const limit = 3;
    for (let round = 0; round < RACE_ROUNDS / 4; round++) {
      const who = `user-${round}`;
      const attempts = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          racers[i % racers.length]!.throttles.takeThrottle('login-link', who, limit, 10 * MINUTE),
        ),
      );
      expect(
        attempts.filter((a) => a.allowed),
        `round ${round}`,
      ).toHaveLength(limit);
      expect(await store.throttles.throttled('login-link', who, limit, 10 * MINUTE)).toMatchObject({ limited: true });
    }
  });

  it(`deciding a link request: one of two admins in two processes wins, ${RACE_ROUNDS} rounds`, async () => {
    const [a, b] = await processes(2);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const request = await store.links.createLinkRequest({
        guildId: 'g1',
        userId: `u${round}`,
        personId: 'p1',
        locale: 'sv',
      });
      const [first, second] = await Promise.all([
        a!.links.decideLinkRequest(request.id, true, 'admin-a'),
        b!.links.decideLinkRequest(request.id, round % 2 === 0, 'admin-b'),
      ]);
      expect([first, second].filter(Boolean), `round ${round}`).toHaveLength(1);
      const decided = await store.links.linkRequest(request.id);
      expect(decided!.decidedBy).toBe(first ? 'admin-a' : 'admin-b');
      const links = await store.links.linkedPersons('g1', `u${round}`);
      expect(links).toHaveLength(decided!.state === 'approved' ? 1 : 0);
    }
  });

  it(`a member's first links from two processes at once: exactly one default, ${RACE_ROUNDS} rounds`, async () => {
    const [a, b] = await processes(2);
    for (let round = 0; round < RACE_ROUNDS; round++) {
      await Promise.all([
        a!.links.linkPerson('g1', `u${round}`, 'p1', 'admin'),
        b!.links.linkPerson('g1', `u${round}`, 'p2', 'admin'),
      ]);
      const links = await store.links.linkedPersons('g1', `u${round}`);
      expect(
        links.filter((l) => l.isDefault),
        `round ${round}`,
      ).toHaveLength(1);
    }
  });

  it(`cups: three admins in three processes creating the last cup, ${RACE_ROUNDS / 4} rounds: exactly one gets it`, async () => {
    const others = [await factory.again(store), await factory.again(store)];
    for (let round = 0; round < RACE_ROUNDS / 4; round++) {
      const guild = `g${round}`;
      const made = await Promise.all(
        [store, ...others].map((s, i) =>
          s.cups.create(guild, { name: `Cup ${i}`, nameKey: `cup ${i}`, rules: '{}' }, 1),
        ),
      );
      expect(made.filter((m) => typeof m === 'object')).toHaveLength(1);
      expect(made.filter((m) => m === 'full')).toHaveLength(2);
      expect(await store.cups.list(guild)).toHaveLength(1);
    }
  });

  it("feed settings' read-modify-write from three processes at once loses no change", async () => {
    const racers = await processes(3);
    const changes = 30;
    await Promise.all(
      Array.from({ length: changes }, (_, i) =>
        racers[i % racers.length]!.feedSettings.update('g1', 'results', (current) => {
          const count = current ? (JSON.parse(current.options) as { count: number }).count : 0;
          return { ...(current ?? OFF), options: JSON.stringify({ count: count + 1 }) };
        }),
      ),
    );
    expect(JSON.parse((await store.feedSettings.get('g1', 'results'))!.options)).toEqual({ count: changes });
  });
});
