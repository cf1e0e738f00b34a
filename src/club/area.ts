/**
 * The club's area: the club and, when it has one, its district — the events "around the club" that
 * /events lists, the deadline reminders watch and the new-events feed posts; one rule for all.
 */
import type { Organisation } from '../eventor/answers.js';
import type { EventorClient } from '../eventor/client.js';
import { EventorError } from '../eventor/errors.js';
import type { Logger } from '../log/logger.js';

export interface ClubArea {
  /** The district's id (when there is one) and the club's. */
  ids: string[];
  /** True when the club has a parent but Eventor could not give it, so the area is the club alone. */
  districtUnavailable: boolean;
}

/**
 * A parent that is a federation would mean the whole country, so only a district widens the area.
 * When Eventor cannot give the district (not in `organisations`, and asking for it by id fails),
 * the club alone is still worth a list: callers say the district is missing rather than failing as
 * a whole. A refused key is the exception: it concerns every question, so it is passed on.
 */
export async function clubArea(
  client: EventorClient,
  organisationId: string,
  options: { organisations?: ReadonlyMap<string, Organisation>; log?: Logger } = {},
): Promise<ClubArea> {
  const clubOnly = (districtUnavailable: boolean): ClubArea => ({ ids: [organisationId], districtUnavailable });
  const club = options.organisations?.get(organisationId) ?? (await client.organisation({ id: organisationId }));
  const parentId = club.parentId ?? null;
  if (parentId === null) return clubOnly(false);
  let parent = options.organisations?.get(parentId);
  if (parent === undefined) {
    try {
      parent = await client.organisation({ id: parentId });
    } catch (error) {
      if (!(error instanceof EventorError) || error.code === 'InvalidApiKey') throw error;
      options.log?.warn("the club's district could not be looked up; using the club alone", {
        district: parentId,
        error,
      });
      return clubOnly(true);
    }
  }
  return parent.kind === 'district'
    ? { ids: [parent.id, organisationId], districtUnavailable: false }
    : clubOnly(false);
}
