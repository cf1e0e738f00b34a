import type { APIApplicationCommandOption, RESTPostAPIChatInputApplicationCommandsJSONBody } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import {
  commandMention,
  discordLocalizations,
  forms,
  LANGUAGES,
  languageFor,
  MESSAGE_KEYS,
  t,
} from '../../src/i18n/index.js';
import { COMMAND_MENTIONS } from '../../src/i18n/mentions.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n', () => {
  it('maps Discord locales onto languages', () => {
    expect(languageFor('sv-SE')).toBe('sv');
    expect(languageFor('no')).toBe('nb');
    expect(languageFor('en-GB')).toBe('en');
    expect(languageFor('de')).toBe('en');
    expect(languageFor(undefined)).toBe('en');
  });

  it('fills placeholders', () => {
    expect(t('sv', 'error.datesReversed', { from: '2026-05-02', to: '2026-05-01' })).toBe(
      'Startdatumet (2026-05-02) ligger efter slutdatumet (2026-05-01).',
    );
    expect(discordLocalizations('error.eventNotFound')['sv-SE']).toBe('Jag hittade inte den tävlingen i Eventor.');
  });

  it('translates every key into every language, keeping its placeholders', () => {
    expect(MESSAGE_KEYS.length).toBeGreaterThan(0);
    for (const key of MESSAGE_KEYS) {
      for (const language of LANGUAGES) {
        // Every plural form of a key keeps the placeholders of the English text.
        const english = forms('en', key);
        for (const [form, text] of Object.entries(forms(language, key))) {
          expect(text.trim().length, `${language} ${key} ${form}`).toBeGreaterThan(0);
          expect(placeholders(text), `${language} ${key} ${form}`).toEqual(
            placeholders(english.text ?? english.other!),
          );
        }
      }
    }
  });

  it("picks the plural form by count through each language's plural rules", () => {
    expect(t('en', 'scheduler.summary.events', { count: 1 })).toBe('1 new or changed event');
    expect(t('en', 'scheduler.summary.events', { count: 2 })).toBe('2 new or changed events');
    expect(t('en', 'scheduler.summary.events', { count: 0 })).toBe('0 new or changed events');
    expect(t('sv', 'scheduler.summary.events', { count: 1 })).toBe('1 ny eller ändrad tävling');
    expect(t('sv', 'scheduler.summary.events', { count: 5 })).toBe('5 nya eller ändrade tävlingar');
    expect(t('nb', 'scheduler.summary.events', { count: 1 })).toBe('1 nytt eller endret løp');
    expect(t('nb', 'scheduler.summary.events', { count: 3 })).toBe('3 nye eller endrede løp');
    expect(t('en', 'feedpost.reminder.count', { count: 1 })).toBe('1 from the club has entered so far.');
    expect(t('en', 'feedpost.reminder.count', { count: 31 })).toBe('31 from the club have entered so far.');
    expect(t('sv', 'feedpost.activity.registered', { count: 1 })).toBe('1 anmäld hittills.');
    expect(t('sv', 'feedpost.activity.registered', { count: 7 })).toBe('7 anmälda hittills.');
    expect(t('nb', 'feeds.show.leadDays', { days: '1', count: 1, late: 'ja' })).toBe(
      'Påminnelser 1 dag før; frister for etteranmelding: ja',
    );
    expect(t('nb', 'feeds.show.leadDays', { days: '7, 1', count: 2, late: 'ja' })).toBe(
      'Påminnelser 7, 1 dager før; frister for etteranmelding: ja',
    );
    expect(t('sv', 'members.starts.notPublished', { count: 1 })).toContain('1 från klubben är anmäld;');
    // No count: the general form (which the type of t() refuses; a key read at run time may still lack it).
    // @ts-expect-error a plural text takes `count`
    expect(t('en', 'scheduler.summary.generic')).toBe('{count} new posts');
  });

  it('no text shows a count through a singular-only sentence', () => {
    // A text with {count} in running prose ("{count} tävlingar") must be a plural; labels ("Anmälda: {count}") need not be.
    // "…and {count} more" reads the same for every count in all three languages.
    const invariant = /\{count\} (more|till|til)\b/u;
    const singularOnly: string[] = [];
    for (const key of MESSAGE_KEYS) {
      for (const language of LANGUAGES) {
        const all = forms(language, key);
        if ('text' in all && /\{count\} \p{L}/u.test(all.text!) && !invariant.test(all.text!))
          singularOnly.push(`${language} ${key}: ${all.text}`);
      }
    }
    expect(singularOnly).toEqual([]);
  });

  it("uses the federations' and Eventor's own terms (the review in wording-sv-no.md)", () => {
    expect(t('sv', 'render.status.NotCompeting')).toBe('Utom tävlan');
    expect(t('sv', 'render.status.Active')).toBe('ute på banan');
    expect(t('nb', 'render.status.OverTime')).toBe('Over makstid');
    expect(t('nb', 'render.discipline.foot')).toBe('Fotorientering');
    // DNF ("Brutt") and a sporting withdrawal are told apart.
    expect(t('nb', 'render.status.SportingWithdrawal')).not.toBe(t('nb', 'render.status.DidNotFinish'));
    expect(t('nb', 'card.show.classes')).toBe('Standardklasser');
    expect(t('sv', 'card.show.classes')).toBe('Standardklasser');
    expect(t('sv', 'linking.decide.approved', { user: 'u', person: 'p' })).toBe('Godkänd: u är nu kopplad till p.');
    expect(t('sv', 'card.show.classes')).toBe('Standardklasser');
    const swedishAndNorwegian = MESSAGE_KEYS.flatMap((key) =>
      (['sv', 'nb'] as const).flatMap((language) =>
        Object.values(forms(language, key)).map((text) => `${language} ${key}: ${text}`),
      ),
    );
    // Half-translated command names and the odd "driftens".
    expect(swedishAndNorwegian.filter((line) => /`\/link[ `]|(?<!\{)\/setup channel|driftens/.test(line))).toEqual([]);
  });

  it('names commands through mentions: in the language of the text, never hard-coded', () => {
    expect(commandMention('sv', 'setup channel')).toBe('/inställningar kanal');
    expect(commandMention('nb', 'feeds resume')).toBe('/autoinnlegg gjenoppta');
    expect(commandMention('en', 'link request')).toBe('/link request');
    expect(t('sv', 'scheduler.paused.channel-missing', { kind: 'resultat' })).toContain(
      'Välj en ny med /inställningar kanal;',
    );
    expect(t('nb', 'linking.forget.ask')).toContain('`/varsler`');
    // A mention in a variable's value (text from Eventor) stays as it came.
    expect(t('en', 'error.datesReversed', { from: '{/setup}', to: '{count}' })).toBe(
      'The start date ({/setup}) is after the end date ({count}).',
    );
    // Every path in the table names a command (and subcommand) that is registered under that English path.
    const registered = new Set(
      COMMANDS.flatMap(({ definition }) => [
        definition.name,
        ...(definition.options ?? []).filter((o) => o.type === 1).map((o) => `${definition.name} ${o.name}`),
      ]),
    );
    expect(Object.keys(COMMAND_MENTIONS).filter((path) => !registered.has(path))).toEqual([]);
    // Every name a member could type, in any language, appears in texts only as a mention.
    const names = new Set(
      COMMANDS.flatMap(({ definition }) => [
        definition.name,
        ...Object.values(definition.name_localizations ?? {}),
      ]).filter((n): n is string => typeof n === 'string'),
    );
    const slashName = new RegExp(`(?<![\\p{L}\\p{N}/.:{])/(${[...names].join('|')})(?![\\p{L}\\p{N}-])`, 'u');
    const hardCoded: string[] = [];
    const unknownMentions: string[] = [];
    for (const key of MESSAGE_KEYS) {
      for (const language of LANGUAGES) {
        for (const text of Object.values(forms(language, key))) {
          if (slashName.test(text)) hardCoded.push(`${language} ${key}: ${text}`);
          for (const [, path] of text.matchAll(/\{\/([^}]*)\}/g))
            if (!Object.hasOwn(COMMAND_MENTIONS, path!)) unknownMentions.push(`${language} ${key}: ${path}`);
        }
      }
    }
    expect(hardCoded).toEqual([]);
    expect(unknownMentions).toEqual([]);
  });

  it('gives every command, subcommand and option a name Discord accepts in every language (renamed ones included)', () => {
    const NAME = /^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
    const bad: string[] = [];
    const check = (
      path: string,
      item: RESTPostAPIChatInputApplicationCommandsJSONBody | APIApplicationCommandOption,
    ) => {
      for (const [locale, name] of [['', item.name], ...Object.entries(item.name_localizations ?? {})] as Array<
        [string, string]
      >) {
        if (!NAME.test(name) || name !== name.toLowerCase()) bad.push(`${path} ${locale} name: ${name}`);
        // Words are joined by hyphens throughout in Swedish and Norwegian.
        if ((locale === 'sv-SE' || locale === 'no') && name.includes('_'))
          bad.push(`${path} ${locale} underscore: ${name}`);
      }
      for (const [locale, description] of [
        ['', item.description],
        ...Object.entries(item.description_localizations ?? {}),
      ] as Array<[string, string]>) {
        if (description.length < 1 || description.length > 100)
          bad.push(`${path} ${locale} description: ${description}`);
      }
      for (const option of ('options' in item ? item.options : undefined) ?? [])
        check(`${path} ${option.name}`, option);
    };
    for (const { definition } of COMMANDS) check(definition.name, definition);
    expect(bad).toEqual([]);
    const byName = new Map(COMMANDS.map(({ definition }) => [definition.name, definition]));
    const localised = (name: string) => byName.get(name)?.name_localizations;
    expect(localised('setup')).toMatchObject({ 'sv-SE': 'inställningar', no: 'oppsett' });
    expect(localised('feeds')).toMatchObject({ 'sv-SE': 'autoinlägg', no: 'autoinnlegg' });
    expect(localised('starts')).toMatchObject({ 'sv-SE': 'starttider' });
    expect(localised('events')).toMatchObject({ 'sv-SE': 'tävlingskalender', no: 'terminliste' });
    const reminders = byName.get('feeds')?.options?.find((o) => o.name === 'reminders');
    const leadDays =
      reminders && 'options' in reminders ? reminders.options?.find((o) => o.name === 'lead_days') : undefined;
    expect(leadDays?.name_localizations).toMatchObject({ 'sv-SE': 'dagar-före', no: 'dager-før' });
    const channel = byName.get('setup')?.options?.find((o) => o.name === 'channel');
    expect(
      channel && 'options' in channel
        ? channel.options?.find((o) => o.name === 'kind')?.name_localizations?.['sv-SE']
        : undefined,
    ).toBe('typ');
  });
});
