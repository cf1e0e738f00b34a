/** Synthetic Nordic-sounding names for the sandbox (no real clubs or people). */
import type { EVENT_CLASSIFICATIONS } from '../../../src/eventor/model.js';

export const DISTRICTS = [
  { name: 'Norrfjälls Orienteringsförbund', short: 'Norrfjälls OF', country: 'SWE' },
  { name: 'Södervikens Orienteringsförbund', short: 'Södervikens OF', country: 'SWE' },
  { name: 'Västerås-Dalarö Orienteringsförbund', short: 'V-Dalarö OF', country: 'SWE' },
] as const;

/** [name, short name]; some with å/ä/ö/ø to exercise encoding. */
export const CLUBS: readonly (readonly [string, string])[] = [
  ['Granskogens OK', 'Granskogens OK'],
  ['IFK Älvdalsbacken', 'IFK Älvdal'],
  ['OK Björnstigen', 'OK Björnstigen'],
  ['Sjöhagens SK', 'Sjöhagens SK'],
  ['Tallmyra IF', 'Tallmyra IF'],
  ['Løvsletta OL', 'Løvsletta OL'],
  ['Rävlyans OK', 'Rävlyans OK'],
  ['Hökmossens SOK', 'Hökmossen'],
  ['Fjällbrinkens IK', 'Fjällbrinken'],
  ['Ekåsens OK', 'Ekåsens OK'],
  ['Kärrtorpa FK', 'Kärrtorpa FK'],
  ['Nordvikens OL & Skidklubb', 'Nordviken'],
  ['Ugglebo OK', 'Ugglebo OK'],
];

export const FAMILY = [
  'Andersson',
  'Bergström',
  'Lindqvist',
  'Sjöberg',
  'Åkesson',
  'Holmgren',
  'Nyström',
  'Ekdahl',
  'Lundin',
  'Håkansson',
  'Dahlberg',
  'Øvergaard',
  'Solheim',
  'Brännström',
  'Forsmark',
  'Källman',
  'Strand',
  'Wikström',
  'Hedlund',
  'Grönvall',
  'Björklund',
  'Sandvik',
  'Östlund',
  'Mæhle',
  'Rydén',
  'Lövgren',
  'Nordin',
  'Ahlqvist',
] as const;
export const GIVEN_F = [
  'Anna',
  'Elin',
  'Sofia',
  'Maja',
  'Ingrid',
  'Karin',
  'Linnéa',
  'Astrid',
  'Frida',
  'Solveig',
  'Ebba',
  'Tuva',
  'Signe',
  'Märta',
  'Hedda',
  'Åsa',
  'Ylva',
  'Greta',
] as const;
export const GIVEN_M = [
  'Erik',
  'Lars',
  'Anders',
  'Johan',
  'Olof',
  'Nils',
  'Björn',
  'Gustav',
  'Henrik',
  'Sven',
  'Øystein',
  'Måns',
  'Axel',
  'Jonas',
  'Per',
  'Ivar',
  'Hampus',
  'Torbjörn',
] as const;

export const PLACES = [
  'Granberget',
  'Stora Mossen',
  'Älvkullen',
  'Tjärnåsen',
  'Björnhöjden',
  'Rävsjön',
  'Lillskogen',
  'Hällmyren',
  'Öjaberget',
  'Kråkdalen',
  'Fjällnäs',
  'Sjöudden',
  'Tallbacka',
  'Vargkulla',
  'Löjtnantsholmen',
] as const;

/**
 * What an orienteer reads from an event's name, and so what the event must then be: its level
 * (a "national" event is at national level, and only one is), its distance, whether it is run in the
 * dark, which ages it is for, and the season its name speaks of (months 1 to 12).
 */
export interface EventKind {
  name: string;
  classificationIds: readonly (keyof typeof EVENT_CLASSIFICATIONS)[];
  distance?: 'Sprint' | 'Middle' | 'Long';
  /** Run in the dark: in the months it is dark by the evening start, with the races' light condition Night. */
  night?: true;
  /** Veterans (35 and older) or youth (16 and younger) only; everyone when absent. */
  ages?: 'veterans' | 'youth';
  months?: readonly number[];
}

/** The months in which it is dark at a night event's evening start (NIGHT_START) in the club's zone. */
export const DARK_EVENING_MONTHS = [10, 11, 12, 1, 2] as const;
/** The months in which an evening event (EVENING_START) is run, and finished, in daylight. */
export const LIGHT_EVENING_MONTHS = [4, 5, 6, 7, 8] as const;

export const EVENT_KINDS: readonly EventKind[] = [
  { name: 'Nattcupen', classificationIds: ['4', '5'], night: true, months: DARK_EVENING_MONTHS },
  { name: 'Sprintcup', classificationIds: ['4', '5'], distance: 'Sprint' },
  { name: 'Medeldistans', classificationIds: ['3', '4'], distance: 'Middle' },
  { name: 'Långdistans', classificationIds: ['3', '4'], distance: 'Long' },
  { name: 'Klubbmästerskap', classificationIds: ['5'] },
  { name: 'Distriktsmästerskap', classificationIds: ['1'] },
  { name: 'DM-sprinten', classificationIds: ['1'], distance: 'Sprint' },
  { name: 'Nationell tävling', classificationIds: ['2'] },
  { name: 'Nationella medeldistansen', classificationIds: ['2'], distance: 'Middle' },
  { name: 'Veteranpokal', classificationIds: ['3', '4'], ages: 'veterans' },
  { name: 'Ungdomsserien', classificationIds: ['3', '4', '5'], ages: 'youth' },
  { name: 'Höstträffen', classificationIds: ['3', '4'], months: [9, 10, 11] },
  { name: 'Vårtävlingen', classificationIds: ['3', '4'], months: [3, 4, 5] },
  { name: 'Open', classificationIds: ['6'] },
  { name: 'International Trophy', classificationIds: ['6'], distance: 'Long' },
];

export const STREETS = ['Storgatan', 'Skogsvägen', 'Kvarngränd', 'Sjöstigen', 'Ängsvägen', 'Bäckvägen'] as const;
export const CITIES = ['Älvby', 'Granö', 'Sjöstad', 'Norrvik', 'Bergsjö', 'Tallhed'] as const;
