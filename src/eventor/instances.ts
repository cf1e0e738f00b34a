/**
 * Eventor instances. Ids are per instance, so every stored id belongs with the instance it came from.
 * Time zones (docs/eventor.md#time-zones): SE and NO send local time unless asked for UTC with the
 * `TimeZone: UTC` header; AU sends UTC already.
 */
export interface EventorInstance {
  /** Short name used in configuration (`se`, `no`, `au`, `iof`) or `custom`. */
  readonly name: string;
  readonly label: string;
  /** Up to and including `/api`, without a trailing slash. */
  readonly baseUrl: string;
  /** IANA zone of the times in native XML when no `TimeZone` header is sent. */
  readonly nativeTimeZone: string;
  /** Whether the instance honours `TimeZone: UTC`; the client then asks for UTC. */
  readonly supportsUtcHeader: boolean;
  /** Public web front end, for links to events. */
  readonly webUrl: string;
}

export const INSTANCES = {
  se: {
    name: 'se',
    label: 'Eventor Sweden',
    baseUrl: 'https://eventor.orientering.se/api',
    nativeTimeZone: 'Europe/Stockholm',
    supportsUtcHeader: true,
    webUrl: 'https://eventor.orientering.se',
  },
  no: {
    name: 'no',
    label: 'Eventor Norway',
    baseUrl: 'https://eventor.orientering.no/api',
    nativeTimeZone: 'Europe/Oslo',
    supportsUtcHeader: true,
    webUrl: 'https://eventor.orientering.no',
  },
  /** The newer Norwegian host that 2025-26 clients and document links use. */
  'no-se-host': {
    name: 'no-se-host',
    label: 'Eventor Norway',
    baseUrl: 'https://eventor-norway.orientering.se/api',
    nativeTimeZone: 'Europe/Oslo',
    supportsUtcHeader: true,
    webUrl: 'https://eventor-norway.orientering.se',
  },
  au: {
    name: 'au',
    label: 'Eventor Australia',
    baseUrl: 'https://eventor.orienteering.asn.au/api',
    nativeTimeZone: 'UTC',
    supportsUtcHeader: false,
    webUrl: 'https://eventor.orienteering.asn.au',
  },
  iof: {
    name: 'iof',
    label: 'IOF Eventor',
    baseUrl: 'https://eventor.orienteering.sport/api',
    nativeTimeZone: 'Europe/Stockholm',
    supportsUtcHeader: true,
    webUrl: 'https://eventor.orienteering.sport',
  },
} as const satisfies Record<string, EventorInstance>;

export type InstanceName = keyof typeof INSTANCES;

export function isInstanceName(name: string): name is InstanceName {
  return Object.hasOwn(INSTANCES, name);
}

/**
 * An instance for any other base URL (a test server, a caching proxy, the sandbox). Without a
 * zone the client asks for UTC (`TimeZone: UTC`). A zone given by the operator says the address
 * ignores that header (EVENTOR_TIME_ZONE, a zone in EVENTOR_CUSTOM_URLS): the header is then not
 * sent and native times are read in that zone, as for the presets that lack the header.
 */
export function customInstance(
  baseUrl: string,
  options: { nativeTimeZone?: string; supportsUtcHeader?: boolean } = {},
): EventorInstance {
  const url = new URL(baseUrl);
  // Never kept: requests go to the origin with the key in a header, and baseUrl and webUrl end up
  // in logs and in the links the bot posts. The configuration refuses them; this is the backstop.
  url.username = '';
  url.password = '';
  const trimmed = url.href.replace(/\/+$/, '');
  return {
    name: 'custom',
    label: url.host,
    baseUrl: trimmed,
    nativeTimeZone: options.nativeTimeZone ?? 'Europe/Stockholm',
    supportsUtcHeader: options.supportsUtcHeader ?? options.nativeTimeZone === undefined,
    webUrl: trimmed.replace(/\/api$/, ''),
  };
}
