/**
 * Where the live results are read: the configuration reads these on every start, so they live
 * apart from the client, which a process loads only when it reads live results.
 */
export interface LiveEndpoints {
  /** The REST API's base URL (LIVERESULTAT_URL). */
  restUrl: string;
  /** `api.php`'s URL (LIVERESULTAT_LEGACY_URL). */
  legacyUrl: string;
}

/** The public services: the defaults of LIVERESULTAT_URL and LIVERESULTAT_LEGACY_URL. */
export const PUBLIC_LIVE_ENDPOINTS: LiveEndpoints = {
  restUrl: 'https://api.orienteering.services',
  legacyUrl: 'https://liveresultat.orientering.se/api.php',
};
