import type { MessageKey } from './en.js';

/** Norwegian Bokmål (Discord's locale `no`). */
export const nb: Record<MessageKey, string> = {
  'error.eventorUnavailable': 'Eventor svarer ikke akkurat nå. Prøv igjen om noen minutter.',
  'error.invalidApiKey': 'Eventor godtar ikke serverens API-nøkkel. En administrator må kjøre `/setup` på nytt.',
  'error.notConfigured': 'Denne serveren er ikke koblet til Eventor ennå. En administrator kan gjøre det med `/setup`.',
  'error.eventNotFound': 'Jeg fant ikke det arrangementet i Eventor.',
  'error.datesReversed': 'Startdatoen ({from}) er etter sluttdatoen ({to}).',
  'error.notLinked': 'Discord-kontoen din er ikke koblet til en person i Eventor ennå. Bruk `/link` først.',
  'error.unexpected': 'Noe gikk galt hos meg. Det er logget; prøv gjerne igjen.',
};
