/** EntryList and CompetitorCountList (docs/eventor.md#entries-and-entry-counts). */
import type { CompetitorCount, Entry } from '../model.js';
import { CompetitorCount as CompetitorCountSchema, Entry as EntrySchema } from '../model.js';
import type { XmlValue } from '../xml.js';
import { attr, child, children, parseNativeDocument, requiredAttr, requiredText, text, texts } from '../xml.js';
import type { Ctx } from './common.js';
import {
  cards,
  dateTime,
  each,
  eventRef,
  id,
  organisationOrId,
  organisationRefs,
  personOrId,
  toInt,
} from './common.js';
import type { ParseOptions } from './events.js';
import { feeIds } from './events.js';
import { validateList } from './validate.js';

function entry(node: XmlValue, ctx: Ctx, path: string): Entry {
  const comp = child(node, 'Competitor');
  let competitor: Entry['competitor'] = null;
  let team: Entry['team'] = null;
  if (comp !== undefined) {
    const cPath = `${path}/Competitor`;
    const person = personOrId(comp, cPath);
    competitor = {
      competitorId: id(comp, 'CompetitorId'),
      person: child(comp, 'Person') === undefined ? null : person,
      personId: person?.id ?? null,
      organisation: organisationOrId(comp),
      cards: cards(comp),
    };
  } else if (child(node, 'TeamName') !== undefined || child(node, 'TeamCompetitor') !== undefined) {
    team = {
      name: text(node, 'TeamName') ?? '',
      organisations: organisationRefs(node),
      members: children(node, 'TeamCompetitor').map((m) => ({
        personId: id(m, 'PersonId') ?? id(child(m, 'Person'), 'PersonId'),
        organisationId: id(m, 'OrganisationId') ?? id(child(m, 'Organisation'), 'OrganisationId'),
        leg: toInt(text(m, 'TeamSequence')),
      })),
    };
  }
  const classes = children(node, 'EntryClass').map((c, index) => {
    const full = child(c, 'EventClass');
    return {
      seq: toInt(attr(c, 'sequence')) ?? Number.MAX_SAFE_INTEGER,
      index,
      id: text(c, 'EventClassId') ?? text(full, 'EventClassId'),
      name: full === undefined ? null : text(full, 'Name'),
    };
  });
  classes.sort((a, b) => a.seq - b.seq || a.index - b.index);
  return {
    id: requiredText(node, 'EntryId', path),
    event: eventRef(node, ctx, path),
    competitor,
    team,
    classIds: classes.map((c) => c.id).filter((v): v is string => v !== null),
    classNames: classes.map((c) => c.name).filter((v): v is string => v !== null),
    raceIds: texts(node, 'EventRaceId'),
    bibNumber: text(node, 'BibNumber'),
    entryDate: dateTime(node, 'EntryDate', ctx, path),
    entryFeeIds: feeIds(node, 'EntryEntryFee'),
    modifiedAt: dateTime(node, 'ModifyDate', ctx, path),
  };
}

export function parseEntryList(xml: string, options: ParseOptions): Entry[] {
  const root = parseNativeDocument(xml, 'EntryList');
  const list = each(root, 'Entry', 'EntryList', (e, path) => entry(e, options, path));
  return validateList(EntrySchema, list, 'EntryList/Entry');
}

function count(node: XmlValue, name: string): number {
  return toInt(attr(node, name)) ?? 0;
}

function competitorCount(node: XmlValue, path: string): CompetitorCount {
  return {
    eventId: requiredAttr(node, 'eventId', path),
    raceId: attr(node, 'eventRaceId'),
    entries: count(node, 'numberOfEntries'),
    starts: count(node, 'numberOfStarts'),
    classes: each(node, 'ClassCompetitorCount', path, (c, p) => ({
      classId: requiredAttr(c, 'eventClassId', p),
      entries: count(c, 'numberOfEntries'),
      starts: count(c, 'numberOfStarts'),
    })),
    organisations: each(node, 'OrganisationCompetitorCount', path, (o, p) => ({
      organisationId: requiredAttr(o, 'organisationId', p),
      entries: count(o, 'numberOfEntries'),
      starts: count(o, 'numberOfStarts'),
    })),
  };
}

export function parseCompetitorCountList(xml: string, options: ParseOptions): CompetitorCount[] {
  void options;
  const root = parseNativeDocument(xml, 'CompetitorCountList');
  const list = each(root, 'CompetitorCount', 'CompetitorCountList', (c, path) => competitorCount(c, path));
  return validateList(CompetitorCountSchema, list, 'CompetitorCountList/CompetitorCount');
}
