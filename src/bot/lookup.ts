/**
 * Autocomplete choices: events, members, activities and classes found by what the member typed.
 * Discord allows 3 s and 25 choices, so every lookup asks Eventor for a window that is the same
 * all day (the client then answers repeats from its cache) and filters here.
 */
import { millisecondsInDay as DAY } from 'date-fns/constants';
import type { ApplicationCommandOptionChoiceData } from 'discord.js';
import { fold } from '../text/fold.js';
import type { EventorClient } from '../eventor/client.js';
import type { Activity, Event, Person } from '../eventor/answers.js';
import { plainText } from '../render/index.js';
import { queryDay } from '../time/days.js';
import { instantToLocal } from '../time/zones.js';

const MAX_CHOICES = 25;
const MAX_NAME = 100;

function matches(haystack: string, query: string): boolean {
  const words = fold(query).split(/\s+/).filter(Boolean);
  const folded = fold(haystack);
  return words.every((w) => folded.includes(w));
}

/**
 * A choice as Discord takes it: the name 1 to 100 characters of plain text (choice names show no
 * markdown, so Eventor's text is not escaped, but its control and bidi characters go), else the value.
 */
function choice(name: string, value: string): ApplicationCommandOptionChoiceData<string> {
  return { name: plainText(name, MAX_NAME) || plainText(value, MAX_NAME) || '?', value };
}

/** The events window autocomplete searches: 60 days back to 180 days ahead, by whole days. */
function eventWindow(now: Date): { fromDate: string; toDate: string } {
  const t = now.getTime();
  return { fromDate: queryDay(t - 60 * DAY), toDate: queryDay(t + 180 * DAY) };
}

/**
 * Events by what was typed, nearest first. `started`: only events that have begun (those that can
 * have results), for commands about results.
 */
export async function eventChoices(
  client: EventorClient,
  query: string,
  now: Date,
  timeZone: string,
  options: { started?: boolean } = {},
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  const t = now.getTime();
  const all = await client.events(eventWindow(now));
  const events = options.started ? all.filter((e) => e.start !== null && Date.parse(e.start) <= t) : all;
  const label = (e: Event) => `${e.start ? instantToLocal(e.start, timeZone).date : '????-??-??'} ${e.name.trim()}`;
  // Nearest first, upcoming before past at equal distance: what a member most likely means.
  const distance = (e: Event) => (e.start ? Date.parse(e.start) - t : Number.MAX_SAFE_INTEGER);
  return events
    .filter((e) => query.trim() === '' || matches(`${label(e)} ${e.id}`, query))
    .sort((a, b) => Math.abs(distance(a)) - Math.abs(distance(b)) || distance(b) - distance(a))
    .slice(0, MAX_CHOICES)
    .map((e) => choice(label(e), e.id));
}

export async function memberChoices(
  client: EventorClient,
  organisationId: string,
  query: string,
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  const persons = await client.persons({ organisationId });
  const name = (p: Person) => `${p.name.given} ${p.name.family}`.trim();
  return persons
    .filter((p) => p.id !== null && (query.trim() === '' || matches(name(p), query)))
    .sort((a, b) => name(a).localeCompare(name(b), 'sv'))
    .slice(0, MAX_CHOICES)
    .map((p) => choice(`${name(p)}${p.birthDate ? ` (${p.birthDate.slice(0, 4)})` : ''}`, p.id!));
}

export async function activityChoices(
  client: EventorClient,
  organisationId: string,
  query: string,
  now: Date,
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  const t = now.getTime();
  const activities = await client.activities({
    organisationId,
    from: queryDay(t - 30 * DAY),
    to: queryDay(t + 180 * DAY),
  });
  const label = (a: Activity) => `${a.startTime ? a.startTime.slice(0, 10) : ''} ${a.name}`.trim();
  return activities
    .filter((a) => query.trim() === '' || matches(label(a), query))
    .slice(0, MAX_CHOICES)
    .map((a) => choice(label(a), a.id));
}

export async function classChoices(
  client: EventorClient,
  eventId: string,
  query: string,
): Promise<ApplicationCommandOptionChoiceData<string>[]> {
  const classes = await client.eventClasses({ eventId });
  return classes
    .filter((c) => query.trim() === '' || matches(`${c.name} ${c.shortName ?? ''}`, query))
    .slice(0, MAX_CHOICES)
    .map((c) => choice(c.name, c.id));
}

/** A server's cups by what was typed (its name, without case or accents); the cup's id is the value. */
export function cupChoices(
  cups: ReadonlyArray<{ id: number; name: string }>,
  query: string,
): ApplicationCommandOptionChoiceData<string>[] {
  return cups
    .filter((cup) => query.trim() === '' || matches(cup.name, query))
    .slice(0, MAX_CHOICES)
    .map((cup) => choice(cup.name, String(cup.id)));
}
