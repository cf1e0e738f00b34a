import type { MessageKey } from './en.js';

export const sv: Record<MessageKey, string> = {
  'error.eventorUnavailable': 'Eventor svarar inte just nu. Försök igen om några minuter.',
  'error.invalidApiKey': 'Eventor godtar inte serverns API-nyckel. En administratör behöver köra `/setup` igen.',
  'error.notConfigured': 'Den här servern är inte kopplad till Eventor än. En administratör kan göra det med `/setup`.',
  'error.eventNotFound': 'Jag hittade inte det arrangemanget i Eventor.',
  'error.datesReversed': 'Startdatumet ({from}) ligger efter slutdatumet ({to}).',
  'error.notLinked': 'Ditt Discord-konto är inte kopplat till en person i Eventor än. Använd `/link` först.',
  'error.unexpected': 'Något gick fel hos mig. Det är loggat; försök gärna igen.',
};
