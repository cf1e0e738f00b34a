import { describe, expect, it } from 'vitest';
import {
  CLASSIFICATION_IDS,
  classificationIdOf,
  classificationOfId,
  EVENT_CLASSIFICATIONS,
  EventClassification,
  KNOWN_CLASSIFICATIONS,
} from '../../src/eventor/model.js';
import { LANGUAGES } from '../../src/i18n/index.js';
import { classificationText } from '../../src/render/index.js';

describe('the one map of event levels', () => {
  it("maps Eventor's classification ids to the model's level names and back", () => {
    expect(CLASSIFICATION_IDS).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(KNOWN_CLASSIFICATIONS).toEqual(['championship', 'national', 'district', 'local', 'club', 'international']);
    for (const id of CLASSIFICATION_IDS) expect(classificationIdOf(classificationOfId(id))).toBe(id);
    expect(classificationIdOf('district')).toBe('3');
    expect(classificationIdOf('unknown')).toBeNull();
    expect(classificationIdOf('Regional')).toBeNull();
    expect(classificationOfId('9')).toBe('unknown');
    expect(classificationOfId(null)).toBe('unknown');
    expect(classificationOfId('toString')).toBe('unknown');
    expect(EventClassification.options).toEqual([...Object.values(EVENT_CLASSIFICATIONS), 'unknown']);
  });

  it('has a text of its own for every level in every language', () => {
    expect(classificationText('district', 'sv')).toBe('Distriktstävling');
    expect(classificationText('local', 'nb')).toBe('Nærløp');
    expect(classificationText('national', 'en')).toBe('National event');
    for (const language of LANGUAGES) {
      const texts = EventClassification.options.map((level) => classificationText(level, language));
      expect(new Set(texts).size).toBe(texts.length);
      for (const text of texts) expect(text).not.toMatch(/^render\./);
    }
  });
});
