/** /next's definition and its refresh button's custom id, as Discord and the router take them. */
import { ApplicationCommandOptionType } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../commands/index.js';
import { nextCommand, nextRefreshId } from '../../commands/next.js';
import { CUSTOM_ID_MAX } from '../../src/bot/custom-ids.js';

describe('/next as registered', () => {
  it('is listed, named in every language, private, for linked members, with an autocompleted person option', () => {
    expect(COMMANDS).toContain(nextCommand);
    const definition = nextCommand.definition;
    expect(definition.name).toBe('next');
    expect(definition.name_localizations?.['sv-SE']).toBe('nästa');
    expect(definition.name_localizations?.no).toBe('neste');
    expect(definition.description.length).toBeLessThanOrEqual(100);
    for (const text of Object.values(definition.description_localizations ?? {})) {
      expect(text!.length).toBeLessThanOrEqual(100);
    }
    expect(definition.options).toEqual([
      expect.objectContaining({
        name: 'person',
        type: ApplicationCommandOptionType.String,
        autocomplete: true,
        max_length: 100,
      }),
    ]);
    expect(nextCommand.defer).toBe('ephemeral');
    expect(nextCommand.requires).toEqual({ linked: 'any' });
    expect(nextCommand.components?.map((c) => c.customId.name)).toEqual(['next:refresh']);
    expect(nextCommand.components?.[0]?.requires).toEqual({ linked: 'any' });
  });

  it("the refresh button's id fits Discord's 100 characters with the longest snowflakes and decodes back", () => {
    const value = { userId: '9'.repeat(20), personId: '9'.repeat(20) };
    const id = nextRefreshId.encode(value);
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_MAX);
    expect(nextRefreshId.decode(id)).toEqual(value);
    expect(nextRefreshId.decode(nextRefreshId.encode({ userId: '42' }))).toEqual({ userId: '42' });
    // A hand-made id that is not a member and a person id does not decode ("no longer valid").
    expect(nextRefreshId.decode('next:refresh:abc:1')).toBeNull();
    expect(nextRefreshId.decode('next:refresh')).toBeNull();
  });
});
