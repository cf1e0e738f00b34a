/** Synthetic Nordic-sounding names for the sandbox (no real clubs or people). */

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
  'Andersson', 'Bergström', 'Lindqvist', 'Sjöberg', 'Åkesson', 'Holmgren', 'Nyström', 'Ekdahl', 'Lundin',
  'Håkansson', 'Dahlberg', 'Øvergaard', 'Solheim', 'Brännström', 'Forsmark', 'Källman', 'Strand', 'Wikström',
  'Hedlund', 'Grönvall', 'Björklund', 'Sandvik', 'Östlund', 'Mæhle', 'Rydén', 'Lövgren', 'Nordin', 'Ahlqvist',
] as const;
export const GIVEN_F = [
  'Anna', 'Elin', 'Sofia', 'Maja', 'Ingrid', 'Karin', 'Linnéa', 'Astrid', 'Frida', 'Solveig', 'Ebba', 'Tuva',
  'Signe', 'Märta', 'Hedda', 'Åsa', 'Ylva', 'Greta',
] as const;
export const GIVEN_M = [
  'Erik', 'Lars', 'Anders', 'Johan', 'Olof', 'Nils', 'Björn', 'Gustav', 'Henrik', 'Sven', 'Øystein', 'Måns',
  'Axel', 'Jonas', 'Per', 'Ivar', 'Hampus', 'Torbjörn',
] as const;

export const PLACES = [
  'Granberget', 'Stora Mossen', 'Älvkullen', 'Tjärnåsen', 'Björnhöjden', 'Rävsjön', 'Lillskogen', 'Hällmyren',
  'Öjaberget', 'Kråkdalen', 'Fjällnäs', 'Sjöudden', 'Tallbacka', 'Vargkulla', 'Löjtnantsholmen',
] as const;

export const EVENT_KINDS = [
  'Nattcupen', 'Sprintcup', 'Medeldistans', 'Långdistans', 'Klubbmästerskap', 'Distriktsmästerskap', 'Nationell tävling',
  'Veteranpokal', 'Ungdomsserien', 'Höstträffen', 'Vårtävlingen',
] as const;

export const STREETS = ['Storgatan', 'Skogsvägen', 'Kvarngränd', 'Sjöstigen', 'Ängsvägen', 'Bäckvägen'] as const;
export const CITIES = ['Älvby', 'Granö', 'Sjöstad', 'Norrvik', 'Bergsjö', 'Tallhed'] as const;
