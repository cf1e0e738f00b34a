import { defineMessages } from '../define.js';

export const errors = defineMessages({
  en: {
    'error.discordUnavailable':
      'Discord has not yet told me everything about this server (it does so shortly after I connect). Nothing was changed; please try again in a minute.',
    'error.eventorUnavailable': 'Eventor is not answering right now. Please try again in a few minutes.',
    'error.eventorAnswerTooLarge':
      'Eventor sent a far larger answer than expected, so I stopped reading it. Try a narrower search (fewer days, or one event); if it keeps happening, tell an admin.',
    'error.invalidApiKey': "Eventor does not accept this server's API key. An admin needs to run `{/setup}` again.",
    'error.notConfigured': 'This server is not connected to Eventor yet. An admin can do it with `{/setup}`.',
    'error.eventorNotPermitted':
      "Eventor refused this request with the server's API key: the key does not have the rights for it. An admin can check the key with `{/status}`.",
    'error.eventorListMissing':
      'Eventor answered that what I asked for is not there (it has no such list at this address, or the club or event is gone). If it keeps happening, an admin can check the connection with `{/status}`.',
    'error.eventNotFound': 'I could not find that event in Eventor.',
    'error.datesReversed': 'The start date ({from}) is after the end date ({to}).',
    'error.notLinked': 'Your Discord account is not linked to an Eventor person yet. Use `{/link}` first.',
    'error.unexpected': 'Something went wrong on my side. It has been logged; please try again.',
    'error.slowDown': 'That is a lot of requests in a short time. Please slow down and try again in {seconds} s.',
    'error.staleComponent': 'This button or form is no longer valid. Nothing was changed; run the command again.',
  },
  sv: {
    'error.discordUnavailable':
      'Discord har ännu inte berättat allt om den här servern för mig (det sker strax efter att jag anslutit). Inget har ändrats; försök igen om en minut.',
    'error.eventorUnavailable': 'Eventor svarar inte just nu. Försök igen om några minuter.',
    'error.eventorAnswerTooLarge':
      'Eventor skickade ett mycket större svar än väntat, så jag slutade läsa det. Prova en snävare sökning (färre dagar eller ett arrangemang); händer det igen, säg till en administratör.',
    'error.invalidApiKey': 'Eventor godtar inte serverns API-nyckel. En administratör behöver köra `{/setup}` igen.',
    'error.notConfigured':
      'Den här servern är inte kopplad till Eventor än. En administratör kan göra det med `{/setup}`.',
    'error.eventorNotPermitted':
      'Eventor nekade den här förfrågan med serverns API-nyckel: nyckeln har inte behörighet till den. En administratör kan kontrollera nyckeln med `{/status}`.',
    'error.eventorListMissing':
      'Eventor svarade att det jag frågade efter inte finns (ingen sådan lista på den här adressen, eller så finns klubben eller tävlingen inte längre). Händer det igen kan en administratör kontrollera kopplingen med `{/status}`.',
    'error.eventNotFound': 'Jag hittade inte den tävlingen i Eventor.',
    'error.datesReversed': 'Startdatumet ({from}) ligger efter slutdatumet ({to}).',
    'error.notLinked': 'Ditt Discord-konto är inte kopplat till en person i Eventor än. Använd `{/link}` först.',
    'error.unexpected': 'Något gick fel hos mig. Det är loggat; försök gärna igen.',
    'error.slowDown': 'Det var många förfrågningar på kort tid. Ta det lite lugnare och försök igen om {seconds} s.',
    'error.staleComponent':
      'Den här knappen eller det här formuläret gäller inte längre. Inget har ändrats; kör kommandot igen.',
  },
  nb: {
    'error.discordUnavailable':
      'Discord har ennå ikke fortalt meg alt om denne serveren (det skjer like etter at jeg har koblet til). Ingenting er endret; prøv igjen om et minutt.',
    'error.eventorUnavailable': 'Eventor svarer ikke akkurat nå. Prøv igjen om noen minutter.',
    'error.eventorAnswerTooLarge':
      'Eventor sendte et mye større svar enn ventet, så jeg sluttet å lese det. Prøv et smalere søk (færre dager, eller ett arrangement); skjer det igjen, si fra til en administrator.',
    'error.invalidApiKey': 'Eventor godtar ikke serverens API-nøkkel. En administrator må kjøre `{/setup}` på nytt.',
    'error.notConfigured':
      'Denne serveren er ikke koblet til Eventor ennå. En administrator kan gjøre det med `{/setup}`.',
    'error.eventorNotPermitted':
      'Eventor avviste denne forespørselen med serverens API-nøkkel: nøkkelen har ikke tilgang til den. En administrator kan sjekke nøkkelen med `{/status}`.',
    'error.eventorListMissing':
      'Eventor svarte at det jeg spurte etter, ikke finnes (ingen slik liste på denne adressen, eller klubben eller arrangementet finnes ikke lenger). Skjer det igjen, kan en administrator sjekke koblingen med `{/status}`.',
    'error.eventNotFound': 'Jeg fant ikke det arrangementet i Eventor.',
    'error.datesReversed': 'Startdatoen ({from}) er etter sluttdatoen ({to}).',
    'error.notLinked': 'Discord-kontoen din er ikke koblet til en person i Eventor ennå. Bruk `{/link}` først.',
    'error.unexpected': 'Noe gikk galt hos meg. Det er logget; prøv gjerne igjen.',
    'error.slowDown': 'Det var mange forespørsler på kort tid. Ta det litt roligere og prøv igjen om {seconds} s.',
    'error.staleComponent':
      'Denne knappen eller dette skjemaet gjelder ikke lenger. Ingenting er endret; kjør kommandoen på nytt.',
  },
});
