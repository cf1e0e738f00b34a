/**
 * The composition root of the services: one of each per running bot, built from the store, the
 * Eventor access, the clock and the logger. `startBot` (and so `start`, `tick`, the demo and the
 * loopback world the tests use) calls it once; commands reach the services through their context
 * (`ctx.services.linking…`), so two bots in one process share nothing but the database they open.
 */
import type { FeedKind } from '../feeds/kind.js';
import type { LiveAccess } from '../feeds/kinds/live/access.js';
import { Subscriptions } from '../feeds/subscriptions.js';
import type { Logger } from '../log/logger.js';
import type { Store } from '../store/interfaces.js';
import { AuditLog } from './audit.js';
import { ClubMembers } from './club.js';
import type { EventorAccess } from '../club/eventor-access.js';
import { Cups } from './cups.js';
import { FeedsAdmin } from './feeds-admin.js';
import { Linking } from './linking.js';
import { LiveService } from './live.js';
import { LoginLinks } from './login-links.js';
import { NextRacesService } from './next.js';
import { Privacy } from './privacy.js';
import { SeasonService } from '../club/season.js';
import { Setup } from './setup.js';

export interface Services {
  /** Which Eventor and key each server uses. */
  eventor: EventorAccess;
  /** The club's members: the client's day-long list, and a fresh one before acting as a person. */
  club: ClubMembers;
  linking: Linking;
  /** Who did what for which person, per server (`/admin audit`). */
  audit: AuditLog;
  loginLinks: LoginLinks;
  setup: Setup;
  privacy: Privacy;
  feedsAdmin: FeedsAdmin;
  /** Members' `/notify` subscriptions (the personal DMs' feed reads the same table). */
  subscriptions: Subscriptions;
  /** `/next`: the races a member's linked persons have entered. */
  next: NextRacesService;
  /** `/season` and the cups' standings: the club's races, their results kept once asked. */
  season: SeasonService;
  /** The cups admins define with `/cup`. */
  cups: Cups;
  /** `/live`: today's races followed on LiveResultat, their boards now, and an admin's choice of competition. */
  live: LiveService;
}

export interface ServiceDeps {
  store: Store;
  eventorAccess: EventorAccess;
  clock: () => Date;
  log: Logger;
  /** The kinds of automatic post (default: the registry's). */
  kinds?: readonly FeedKind[];
  /** LiveResultat on the operator's addresses; absent or null: live results are off. */
  live?: LiveAccess | null;
}

export function createServices(deps: ServiceDeps): Services {
  const { store, eventorAccess, clock: now, log, kinds } = deps;
  const club = new ClubMembers();
  const linking = new Linking({ store, club, log, now });
  const audit = new AuditLog({ store });
  return {
    eventor: eventorAccess,
    club,
    linking,
    audit,
    loginLinks: new LoginLinks({ store, club, linking, log, now }),
    setup: new Setup({ store, log, now }),
    privacy: new Privacy({ store }),
    feedsAdmin: new FeedsAdmin({ store, now, log, kinds }),
    subscriptions: new Subscriptions(store),
    next: new NextRacesService({ linking, club }),
    season: new SeasonService({ store, now, log }),
    cups: new Cups({ store, audit, now }),
    live: new LiveService({ store, now, live: deps.live ?? null, kinds }),
  };
}
