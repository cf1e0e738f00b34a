/**
 * The native `<Competitor>` body for `PUT /api/competitor`
 * (docs/eventor.md#competitor-settings-read-modify-write). Element order follows the XSD sequence;
 * `parseCompetitor` reads it back to an equal object except for the fields the body does not carry
 * (`person`, `modifiedAt`).
 */
import type { Competitor } from '../model.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(value: string): string {
  // Characters XML 1.0 cannot carry at all are dropped rather than sent.
  return value
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function element(name: string, value: string | null | undefined): string {
  return value === null || value === undefined || value === '' ? '' : `<${name}>${escapeXml(value)}</${name}>`;
}

export function serializeCompetitor(c: Competitor): string {
  const parts: string[] = ['<?xml version="1.0" encoding="utf-8"?>', '<Competitor>'];
  parts.push(element('CompetitorId', c.competitorId));
  parts.push(element('PersonId', c.personId ?? c.person?.id ?? null));
  parts.push(element('OrganisationId', c.organisationId));
  const classes = [...c.preselectedClasses].sort((a, b) => a.sequence - b.sequence);
  for (const p of classes) {
    // The XSD allows one choice per PreSelectedClass: the base class id wins over the short name.
    const inner =
      p.baseClassId !== null ? element('BaseClassId', p.baseClassId) : element('ClassShortName', p.classShortName);
    if (inner === '') continue;
    parts.push(`<PreSelectedClass sequence="${p.sequence}">${inner}</PreSelectedClass>`);
  }
  for (const card of c.cards) {
    const type = card.type === null ? '' : `<PunchingUnitType value="${escapeXml(card.type)}"/>`;
    parts.push(`<CCard>${element('CCardId', card.number)}${type}</CCard>`);
  }
  parts.push(element('DisciplineId', c.disciplineId));
  parts.push('</Competitor>');
  return parts.join('');
}
