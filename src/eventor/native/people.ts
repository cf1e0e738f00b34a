/** Organisations, persons, competitors and the login link (docs/eventor.md#own-organisation-rules). */
import { InvalidResponse } from '../errors.js';
import type { Competitor, Organisation, Person, PreselectedClass } from '../model.js';
import {
  Competitor as CompetitorSchema,
  Organisation as OrganisationSchema,
  Person as PersonSchema,
} from '../model.js';
import type { XmlValue } from '../xml.js';
import { attr, child, children, ownText, parseNativeDocument, text } from '../xml.js';
import type { Ctx } from './common.js';
import { cards, contactDetails, dateTime, each, id, organisation, personRef, toInt } from './common.js';
import type { ParseOptions } from './events.js';
import { validateList, validateOne } from './validate.js';

export function parseOrganisation(xml: string, options: ParseOptions): Organisation {
  const root = parseNativeDocument(xml, 'Organisation');
  return validateOne(OrganisationSchema, organisation(root, options, 'Organisation'), 'Organisation');
}

export function parseOrganisationList(xml: string, options: ParseOptions): Organisation[] {
  const root = parseNativeDocument(xml, 'OrganisationList');
  const list = each(root, 'Organisation', 'OrganisationList', (o, path) => organisation(o, options, path));
  return validateList(OrganisationSchema, list, 'OrganisationList/Organisation');
}

function organisationIdOf(node: XmlValue): string | null {
  return id(node, 'OrganisationId') ?? id(child(node, 'Organisation'), 'OrganisationId');
}

function person(node: XmlValue, ctx: Ctx, path: string): Person {
  const ref = personRef(node, path);
  return {
    ...ref,
    organisationId: organisationIdOf(node),
    roles: children(node, 'Role').flatMap((r) => {
      const roleTypeId = text(r, 'RoleTypeId') ?? text(child(r, 'RoleType'), 'RoleTypeId');
      return roleTypeId === null ? [] : [{ organisationId: organisationIdOf(r), roleTypeId }];
    }),
    externalIds: children(node, 'ExternalPersonId').flatMap((e) => {
      const type = attr(e, 'typeId');
      const value = attr(e, 'id');
      return type === null || value === null ? [] : [{ type, id: value }];
    }),
    contact: contactDetails(node),
    modifiedAt: dateTime(node, 'ModifyDate', ctx, path),
  };
}

export function parsePersonList(xml: string, options: ParseOptions): Person[] {
  const root = parseNativeDocument(xml, 'PersonList');
  const list = each(root, 'Person', 'PersonList', (p, path) => person(p, options, path));
  return validateList(PersonSchema, list, 'PersonList/Person');
}

/** authenticatePerson's answer. */
export function parsePerson(xml: string, options: ParseOptions): Person {
  const root = parseNativeDocument(xml, 'Person');
  return validateOne(PersonSchema, person(root, options, 'Person'), 'Person');
}

function preselectedClasses(node: XmlValue): PreselectedClass[] {
  const list = children(node, 'PreSelectedClass').map((p, index) => ({
    sequence: toInt(attr(p, 'sequence')) ?? index + 1,
    baseClassId: text(p, 'BaseClassId') ?? text(child(p, 'BaseClass'), 'BaseClassId'),
    classShortName: text(p, 'ClassShortName'),
  }));
  list.sort((a, b) => a.sequence - b.sequence);
  return list;
}

function competitor(node: XmlValue, ctx: Ctx, path: string): Competitor {
  const personEl = child(node, 'Person');
  const ref = personEl === undefined ? null : personRef(personEl, `${path}/Person`);
  return {
    competitorId: id(node, 'CompetitorId'),
    personId: id(node, 'PersonId') ?? ref?.id ?? null,
    person: ref,
    organisationId: organisationIdOf(node),
    cards: cards(node),
    preselectedClasses: preselectedClasses(node),
    disciplineId: text(node, 'DisciplineId'),
    modifiedAt:
      dateTime(node, 'ModifyDate', ctx, path) ??
      (personEl === undefined ? null : dateTime(personEl, 'ModifyDate', ctx, `${path}/Person`)),
  };
}

export function parseCompetitorList(xml: string, options: ParseOptions): Competitor[] {
  const root = parseNativeDocument(xml, 'CompetitorList');
  const list = each(root, 'Competitor', 'CompetitorList', (c, path) => competitor(c, options, path));
  return validateList(CompetitorSchema, list, 'CompetitorList/Competitor');
}

export function parseCompetitor(xml: string, options: ParseOptions): Competitor {
  const root = parseNativeDocument(xml, 'Competitor');
  return validateOne(CompetitorSchema, competitor(root, options, 'Competitor'), 'Competitor');
}

/**
 * The single-use login link. It is a secret for five minutes: it never goes into an error
 * message, only its absence does.
 */
export function parseExternalLoginUrl(xml: string, options: ParseOptions): string {
  void options;
  const root = parseNativeDocument(xml, 'ExternalLoginUrl');
  const url = ownText(root) ?? text(root, 'Url') ?? text(root, 'URL');
  if (url === null) throw new InvalidResponse('no URL in <ExternalLoginUrl>', 'ExternalLoginUrl');
  if (!/^https?:\/\//i.test(url.trim()))
    throw new InvalidResponse('<ExternalLoginUrl> does not hold an http(s) URL', 'ExternalLoginUrl');
  return url.trim();
}
