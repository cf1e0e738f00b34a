import { defineMessages } from '../define.js';

/** /events, /event and /entries. Level choices reuse `render.level.*`, so a level reads the same everywhere. */
export const events = defineMessages({
  en: {
    'events.name': 'events',
    'events.description': 'Upcoming events around the club',
    'events.option.days': 'days',
    'events.option.daysDescription': 'How many days ahead to look (1-365, default 14)',
    'events.option.from': 'from',
    'events.option.fromDescription': 'First day, written YYYY-MM-DD (default: today)',
    'events.option.level': 'level',
    'events.option.levelDescription':
      'Event level; national, championship and international levels search the whole country',
    'events.option.organiser': 'organiser',
    'events.option.organiserDescription': 'Only events by this club or district (type to search)',
    'events.level.all': 'All events, everywhere',
    'events.badDate': '"{value}" is not a date I can read. Write it as YYYY-MM-DD, for example {example}.',
    'events.badDays': 'The number of days must be a whole number from {min} to {max}.',
    'events.unknownOrganiser':
      'I could not find the organiser "{value}" in Eventor. Pick one from the list while typing.',
    'events.district': 'district',
    'events.districtUnavailable':
      "Eventor could not tell me the club's district just now, so this list has only the club's own events.",

    'event.name': 'event',
    'event.description': 'Everything about one event: dates, deadlines, classes, fees, documents',
    'event.option.event': 'event',
    'event.option.eventDescription': 'The event (type part of its name or date to search)',

    'entries.name': 'entries',
    'entries.description': 'Who from the club has entered, and in which class',
    'entries.option.eventDescription': "The event; leave it out for the club's entries in the coming weeks",
  },
  sv: {
    'events.name': 'tävlingskalender',
    'events.description': 'Kommande tävlingar i klubbens närhet',
    'events.option.days': 'dagar',
    'events.option.daysDescription': 'Hur många dagar framåt (1-365, standard 14)',
    'events.option.from': 'från',
    'events.option.fromDescription': 'Första dagen, skriven ÅÅÅÅ-MM-DD (standard: i dag)',
    'events.option.level': 'nivå',
    'events.option.levelDescription':
      'Tävlingens nivå; nationella tävlingar, mästerskap och internationella söks i hela landet',
    'events.option.organiser': 'arrangör',
    'events.option.organiserDescription':
      'Bara tävlingar som den här klubben eller det här distriktet arrangerar (skriv för att söka)',
    'events.level.all': 'Alla tävlingar, överallt',
    'events.badDate': '"{value}" är inget datum jag kan läsa. Skriv det som ÅÅÅÅ-MM-DD, till exempel {example}.',
    'events.badDays': 'Antalet dagar måste vara ett heltal från {min} till {max}.',
    'events.unknownOrganiser': 'Jag hittade inte arrangören "{value}" i Eventor. Välj en i listan medan du skriver.',
    'events.district': 'distrikt',
    'events.districtUnavailable':
      'Eventor kunde inte ge mig klubbens distrikt just nu, så listan visar bara klubbens egna tävlingar.',

    'event.name': 'tävling',
    'event.description': 'Allt om en tävling: datum, anmälningsstopp, klasser, avgifter, dokument',
    'event.option.event': 'tävling',
    'event.option.eventDescription': 'Tävlingen (skriv en del av namnet eller datumet för att söka)',

    'entries.name': 'anmälningar',
    'entries.description': 'Vem från klubben som har anmält sig, och i vilken klass',
    'entries.option.eventDescription': 'Tävlingen; utan den visas klubbens anmälningar de kommande veckorna',
  },
  nb: {
    'events.name': 'terminliste',
    'events.description': 'Kommende løp i nærheten av klubben',
    'events.option.days': 'dager',
    'events.option.daysDescription': 'Hvor mange dager fremover (1-365, standard 14)',
    'events.option.from': 'fra',
    'events.option.fromDescription': 'Første dag, skrevet ÅÅÅÅ-MM-DD (standard: i dag)',
    'events.option.level': 'nivå',
    'events.option.levelDescription':
      'Løpets nivå; nasjonale løp, mesterskap og internasjonale løp søkes i hele landet',
    'events.option.organiser': 'arrangør',
    'events.option.organiserDescription': 'Bare løp denne klubben eller kretsen arrangerer (skriv for å søke)',
    'events.level.all': 'Alle løp, overalt',
    'events.badDate': '«{value}» er ikke en dato jeg kan lese. Skriv den som ÅÅÅÅ-MM-DD, for eksempel {example}.',
    'events.badDays': 'Antall dager må være et helt tall fra {min} til {max}.',
    'events.unknownOrganiser': 'Jeg fant ikke arrangøren «{value}» i Eventor. Velg en fra listen mens du skriver.',
    'events.district': 'krets',
    'events.districtUnavailable':
      'Eventor kunne ikke gi meg klubbens krets akkurat nå, så lista viser bare klubbens egne løp.',

    'event.name': 'løp',
    'event.description': 'Alt om ett løp: datoer, påmeldingsfrister, klasser, avgifter, dokumenter',
    'event.option.event': 'løp',
    'event.option.eventDescription': 'Løpet (skriv en del av navnet eller datoen for å søke)',

    'entries.name': 'påmeldinger',
    'entries.description': 'Hvem fra klubben som har meldt seg på, og i hvilken klasse',
    'entries.option.eventDescription': 'Løpet; uten det vises klubbens påmeldinger de kommende ukene',
  },
});
