import { defineMessages } from '../define.js';

/** /starts, /results, /activities and /activity: names, options and their own messages. */
export const members = defineMessages({
  en: {
    'members.starts.name': 'starts',
    'members.starts.description': "Start times: yours, a member's, or the club's start list in an event",
    'members.results.name': 'results',
    'members.results.description': "Results: your recent ones, a member's, or the club's in an event",
    'members.activities.name': 'activities',
    'members.activities.description': 'Club activities with registrations and deadlines',
    'members.activity.name': 'activity',
    'members.activity.description': 'One club activity in detail',

    'members.option.member.name': 'member',
    'members.option.member.description': 'A club member (default: you)',
    'members.option.event.name': 'event',
    'members.option.startsEvent.description': "An event: the club's start list there",
    'members.option.resultsEvent.description': "An event: the club's results there",
    'members.option.share.name': 'share',
    'members.option.share.description': 'Show your own answer to everyone in the channel (default: only you)',
    'members.option.splits.name': 'splits',
    'members.option.splits.description': 'Include split times',
    'members.option.top.name': 'top',
    'members.option.top.description': 'How many of the top of each class to show besides the club (0-10, default 3)',
    'members.option.from.name': 'from',
    'members.option.from.description': 'First day, YYYY-MM-DD (default: today)',
    'members.option.to.name': 'to',
    'members.option.to.description': 'Last day, YYYY-MM-DD (default: 60 days from the first)',
    'members.option.activity.name': 'activity',
    'members.option.activity.description': 'The activity (type to search)',

    'members.error.badDate': 'I cannot read "{value}" as a date. Write it as YYYY-MM-DD, for example 2026-05-01.',
    'members.error.unknownMember':
      'I could not find a club member called "{name}". Pick one from the list while you type.',
    'members.error.unknownActivity':
      'I could not find that activity in Eventor. Pick one from the list while you type.',
    'members.starts.notPublished': {
      one: 'The start list has not been published yet. {count} from the club has entered; the start times show up here once the organiser publishes the draw.',
      other:
        'The start list has not been published yet. {count} from the club have entered; the start times show up here once the organiser publishes the draw.',
    },
    'members.starts.notPublishedNoEntries':
      'The start list has not been published yet, and nobody from the club has entered.',
    'members.starts.notPublishedPlain':
      'The start list has not been published yet; the start times show up here once the organiser publishes the draw.',
    'members.results.notYet': 'There are no results yet.',
  },
  sv: {
    'members.starts.name': 'starttider',
    'members.starts.description': 'Starttider: dina, en medlems eller klubbens startlista i en tävling',
    'members.results.name': 'resultat',
    'members.results.description': 'Resultat: dina senaste, en medlems eller klubbens i en tävling',
    'members.activities.name': 'aktiviteter',
    'members.activities.description': 'Klubbaktiviteter med anmälningar och sista anmälningsdag',
    'members.activity.name': 'aktivitet',
    'members.activity.description': 'En klubbaktivitet i detalj',

    'members.option.member.name': 'medlem',
    'members.option.member.description': 'En klubbmedlem (standard: du)',
    'members.option.event.name': 'tävling',
    'members.option.startsEvent.description': 'En tävling: klubbens startlista där',
    'members.option.resultsEvent.description': 'En tävling: klubbens resultat där',
    'members.option.share.name': 'dela',
    'members.option.share.description': 'Visa ditt eget svar för alla i kanalen (standard: bara för dig)',
    'members.option.splits.name': 'sträcktider',
    'members.option.splits.description': 'Ta med sträcktider',
    'members.option.top.name': 'topp',
    'members.option.top.description':
      'Hur många av de främsta i varje klass som visas utöver klubben (0–10, standard 3)',
    'members.option.from.name': 'från',
    'members.option.from.description': 'Första dag, ÅÅÅÅ-MM-DD (standard: i dag)',
    'members.option.to.name': 'till',
    'members.option.to.description': 'Sista dag, ÅÅÅÅ-MM-DD (standard: 60 dagar efter första)',
    'members.option.activity.name': 'aktivitet',
    'members.option.activity.description': 'Aktiviteten (skriv för att söka)',

    'members.error.badDate':
      'Jag kan inte läsa "{value}" som ett datum. Skriv det som ÅÅÅÅ-MM-DD, till exempel 2026-05-01.',
    'members.error.unknownMember':
      'Jag hittade ingen klubbmedlem som heter "{name}". Välj en i listan medan du skriver.',
    'members.error.unknownActivity': 'Jag hittade inte den aktiviteten i Eventor. Välj en i listan medan du skriver.',
    'members.starts.notPublished': {
      one: 'Startlistan är inte publicerad än. {count} från klubben är anmäld; starttiderna visas här när arrangören har publicerat lottningen.',
      other:
        'Startlistan är inte publicerad än. {count} från klubben är anmälda; starttiderna visas här när arrangören har publicerat lottningen.',
    },
    'members.starts.notPublishedNoEntries': 'Startlistan är inte publicerad än, och ingen från klubben är anmäld.',
    'members.starts.notPublishedPlain':
      'Startlistan är inte publicerad än; starttiderna visas här när arrangören har publicerat lottningen.',
    'members.results.notYet': 'Det finns inga resultat än.',
  },
  nb: {
    'members.starts.name': 'starter',
    'members.starts.description': 'Starttider: dine, et medlems eller klubbens startliste i et løp',
    'members.results.name': 'resultater',
    'members.results.description': 'Resultater: dine siste, et medlems eller klubbens i et løp',
    'members.activities.name': 'aktiviteter',
    'members.activities.description': 'Klubbaktiviteter med påmeldinger og påmeldingsfrister',
    'members.activity.name': 'aktivitet',
    'members.activity.description': 'Én klubbaktivitet i detalj',

    'members.option.member.name': 'medlem',
    'members.option.member.description': 'Et klubbmedlem (standard: deg)',
    'members.option.event.name': 'løp',
    'members.option.startsEvent.description': 'Et løp: klubbens startliste der',
    'members.option.resultsEvent.description': 'Et løp: klubbens resultater der',
    'members.option.share.name': 'del',
    'members.option.share.description': 'Vis ditt eget svar for alle i kanalen (standard: bare for deg)',
    'members.option.splits.name': 'strekktider',
    'members.option.splits.description': 'Ta med strekktider',
    'members.option.top.name': 'topp',
    'members.option.top.description':
      'Hvor mange av de beste i hver klasse som vises i tillegg til klubben (0–10, standard 3)',
    'members.option.from.name': 'fra',
    'members.option.from.description': 'Første dag, ÅÅÅÅ-MM-DD (standard: i dag)',
    'members.option.to.name': 'til',
    'members.option.to.description': 'Siste dag, ÅÅÅÅ-MM-DD (standard: 60 dager etter første)',
    'members.option.activity.name': 'aktivitet',
    'members.option.activity.description': 'Aktiviteten (skriv for å søke)',

    'members.error.badDate':
      'Jeg kan ikke lese «{value}» som en dato. Skriv den som ÅÅÅÅ-MM-DD, for eksempel 2026-05-01.',
    'members.error.unknownMember':
      'Jeg fant ikke noe klubbmedlem som heter «{name}». Velg et fra listen mens du skriver.',
    'members.error.unknownActivity': 'Jeg fant ikke den aktiviteten i Eventor. Velg en fra listen mens du skriver.',
    'members.starts.notPublished': {
      one: 'Startlisten er ikke publisert ennå. {count} fra klubben er påmeldt; starttidene vises her når arrangøren har publisert trekningen.',
      other:
        'Startlisten er ikke publisert ennå. {count} fra klubben er påmeldt; starttidene vises her når arrangøren har publisert trekningen.',
    },
    'members.starts.notPublishedNoEntries': 'Startlisten er ikke publisert ennå, og ingen fra klubben er påmeldt.',
    'members.starts.notPublishedPlain':
      'Startlisten er ikke publisert ennå; starttidene vises her når arrangøren har publisert trekningen.',
    'members.results.notYet': 'Det finnes ingen resultater ennå.',
  },
});
