import { defineMessages } from '../define.js';

/** /splits: the command, its options, its answer and its refusals (docs/members.md#splits-where-you-lost-time). */
export const splits = defineMessages({
  en: {
    'splits.name': 'splits',
    'splits.description': 'Where did I lose time? The split-time graph and analysis of a class in an event',
    'splits.option.event.description': 'An event with results (type to search)',
    'splits.option.class.name': 'class',
    'splits.option.class.description': "A class of the event (default: yours, else the club's first)",
    'splits.option.member.description': "A club member (default: you, else the club's runners)",

    'splits.title': 'Split times: {class} · {event}',
    'splits.course': 'course {course}',
    'splits.ideal': {
      one: 'Ideal time {ideal} (the best leg times added up), {count} runner, {controls} controls',
      other: 'Ideal time {ideal} (the best leg times added up), {count} runners, {controls} controls',
    },
    'splits.ownNotFound': "You have no result to show here, so these are the club's runners.",
    'splits.noClubRunners': 'Nobody from the club ran this class; the graph shows the winner and a few others.',
    'splits.otherClasses': 'Other classes with club runners: {classes}',
    'splits.more': {
      one: '…and {count} more from the club in the graph',
      other: '…and {count} more from the club in the graph',
    },

    'splits.error.noResults': 'There are no results in this event yet.',
    'splits.error.noSplits': 'The results of this event have no split times, so there is nothing to analyse.',
    'splits.error.unknownClass': 'The results have no class "{name}". Its classes: {classes}',
    'splits.error.notInResults': 'That member has no result in this event (or in that class).',
    'splits.error.tooFew': 'Too few runners ran this course to compare split times (at least 3 are needed).',
    'splits.error.noClubRunners': 'Nobody from the club has a result in this event. Name a class to see it anyway.',
  },
  sv: {
    'splits.name': 'sträcktider',
    'splits.description': 'Var förlorade jag tid? Sträcktidsgraf och analys för en klass i en tävling',
    'splits.option.event.description': 'En tävling med resultat (skriv för att söka)',
    'splits.option.class.name': 'klass',
    'splits.option.class.description': 'En klass i tävlingen (standard: din, annars klubbens första)',
    'splits.option.member.description': 'En klubbmedlem (standard: du, annars klubbens löpare)',

    'splits.title': 'Sträcktider: {class} · {event}',
    'splits.course': 'bana {course}',
    'splits.ideal': {
      one: 'Idealtid {ideal} (de bästa sträcktiderna sammanlagt), {count} löpare, {controls} kontroller',
      other: 'Idealtid {ideal} (de bästa sträcktiderna sammanlagt), {count} löpare, {controls} kontroller',
    },
    'splits.ownNotFound': 'Du har inget resultat att visa här, så det här är klubbens löpare.',
    'splits.noClubRunners': 'Ingen från klubben sprang den här klassen; grafen visar vinnaren och några till.',
    'splits.otherClasses': 'Andra klasser med klubbens löpare: {classes}',
    'splits.more': {
      one: '…och {count} till från klubben i grafen',
      other: '…och {count} till från klubben i grafen',
    },

    'splits.error.noResults': 'Det finns inga resultat i den här tävlingen än.',
    'splits.error.noSplits': 'Resultaten i den här tävlingen saknar sträcktider, så det finns inget att analysera.',
    'splits.error.unknownClass': 'Resultaten har ingen klass "{name}". Klasserna: {classes}',
    'splits.error.notInResults': 'Den medlemmen har inget resultat i den här tävlingen (eller i den klassen).',
    'splits.error.tooFew': 'För få löpare sprang banan för att jämföra sträcktider (minst 3 behövs).',
    'splits.error.noClubRunners':
      'Ingen från klubben har ett resultat i den här tävlingen. Ange en klass för att se den ändå.',
  },
  nb: {
    'splits.name': 'strekktider',
    'splits.description': 'Hvor tapte jeg tid? Strekktidsgraf og analyse for en klasse i et løp',
    'splits.option.event.description': 'Et løp med resultater (skriv for å søke)',
    'splits.option.class.name': 'klasse',
    'splits.option.class.description': 'En klasse i løpet (standard: din, ellers klubbens første)',
    'splits.option.member.description': 'Et klubbmedlem (standard: deg, ellers klubbens løpere)',

    'splits.title': 'Strekktider: {class} · {event}',
    'splits.course': 'løype {course}',
    'splits.ideal': {
      one: 'Idealtid {ideal} (de beste strekktidene lagt sammen), {count} løper, {controls} poster',
      other: 'Idealtid {ideal} (de beste strekktidene lagt sammen), {count} løpere, {controls} poster',
    },
    'splits.ownNotFound': 'Du har ikke noe resultat å vise her, så dette er klubbens løpere.',
    'splits.noClubRunners': 'Ingen fra klubben løp denne klassen; grafen viser vinneren og noen til.',
    'splits.otherClasses': 'Andre klasser med klubbens løpere: {classes}',
    'splits.more': {
      one: '…og {count} til fra klubben i grafen',
      other: '…og {count} til fra klubben i grafen',
    },

    'splits.error.noResults': 'Det finnes ingen resultater i dette løpet ennå.',
    'splits.error.noSplits': 'Resultatene i dette løpet har ingen strekktider, så det er ingenting å analysere.',
    'splits.error.unknownClass': 'Resultatene har ingen klasse "{name}". Klassene: {classes}',
    'splits.error.notInResults': 'Det medlemmet har ikke noe resultat i dette løpet (eller i den klassen).',
    'splits.error.tooFew': 'For få løpere løp løypa til å sammenligne strekktider (minst 3 trengs).',
    'splits.error.noClubRunners':
      'Ingen fra klubben har et resultat i dette løpet. Oppgi en klasse for å se den likevel.',
  },
});
