import { defineMessages } from '../define.js';

export const errors = defineMessages({
  en: {
    'error.eventorUnavailable': 'Eventor is not answering right now. Please try again in a few minutes.',
    'error.eventorAnswerTooLarge': 'Eventor sent a far larger answer than expected, so I stopped reading it. Try a narrower search (fewer days, or one event); if it keeps happening, tell an admin.',
    'error.invalidApiKey': 'Eventor does not accept this server\'s API key. An admin needs to run `/setup` again.',
    'error.notConfigured': 'This server is not connected to Eventor yet. An admin can do it with `/setup`.',
    'error.eventNotFound': 'I could not find that event in Eventor.',
    'error.datesReversed': 'The start date ({from}) is after the end date ({to}).',
    'error.notLinked': 'Your Discord account is not linked to an Eventor person yet. Use `/link` first.',
    'error.unexpected': 'Something went wrong on my side. It has been logged; please try again.',
    'error.slowDown': 'That is a lot of requests in a short time. Please slow down and try again in {seconds} s.',
  },
  sv: {
    'error.eventorUnavailable': 'Eventor svarar inte just nu. Försök igen om några minuter.',
    'error.eventorAnswerTooLarge': 'Eventor skickade ett mycket större svar än väntat, så jag slutade läsa det. Prova en snävare sökning (färre dagar eller ett arrangemang); händer det igen, säg till en administratör.',
    'error.invalidApiKey': 'Eventor godtar inte serverns API-nyckel. En administratör behöver köra `/setup` igen.',
    'error.notConfigured': 'Den här servern är inte kopplad till Eventor än. En administratör kan göra det med `/setup`.',
    'error.eventNotFound': 'Jag hittade inte den tävlingen i Eventor.',
    'error.datesReversed': 'Startdatumet ({from}) ligger efter slutdatumet ({to}).',
    'error.notLinked': 'Ditt Discord-konto är inte kopplat till en person i Eventor än. Använd `/koppla` först.',
    'error.unexpected': 'Något gick fel hos mig. Det är loggat; försök gärna igen.',
    'error.slowDown': 'Det var många förfrågningar på kort tid. Ta det lite lugnare och försök igen om {seconds} s.',
  },
  nb: {
    'error.eventorUnavailable': 'Eventor svarer ikke akkurat nå. Prøv igjen om noen minutter.',
    'error.eventorAnswerTooLarge': 'Eventor sendte et mye større svar enn ventet, så jeg sluttet å lese det. Prøv et smalere søk (færre dager, eller ett arrangement); skjer det igjen, si fra til en administrator.',
    'error.invalidApiKey': 'Eventor godtar ikke serverens API-nøkkel. En administrator må kjøre `/setup` på nytt.',
    'error.notConfigured': 'Denne serveren er ikke koblet til Eventor ennå. En administrator kan gjøre det med `/setup`.',
    'error.eventNotFound': 'Jeg fant ikke det arrangementet i Eventor.',
    'error.datesReversed': 'Startdatoen ({from}) er etter sluttdatoen ({to}).',
    'error.notLinked': 'Discord-kontoen din er ikke koblet til en person i Eventor ennå. Bruk `/koble` først.',
    'error.unexpected': 'Noe gikk galt hos meg. Det er logget; prøv gjerne igjen.',
    'error.slowDown': 'Det var mange forespørsler på kort tid. Ta det litt roligere og prøv igjen om {seconds} s.',
  },
});
