/** ActivityList and Activity (docs/eventor.md#activities): the data sits mostly in attributes. */
import type { Activity } from '../model.js';
import { Activity as ActivitySchema } from '../model.js';
import type { XmlValue } from '../xml.js';
import { attr, children, parseNativeDocument, presentText, requiredAttr, text, texts } from '../xml.js';
import type { Ctx } from './common.js';
import { each, toBool, toInt, xsDateTime } from './common.js';
import type { ParseOptions } from './events.js';
import { validateList, validateOne } from './validate.js';

function activity(node: XmlValue, ctx: Ctx, path: string): Activity {
  const when = (name: string) => xsDateTime(attr(node, name), ctx, `${path}/@${name}`);
  return {
    id: requiredAttr(node, 'id', path),
    organisationId: attr(node, 'organisationId'),
    name: presentText(node, 'Name', path),
    information: text(node, 'Information'),
    startTime: when('startTime'),
    registrationDeadline: when('registrationDeadline'),
    visibleFrom: when('visibleFrom'),
    visibleTo: when('visibleTo'),
    url: attr(node, 'url'),
    registrationCount: toInt(attr(node, 'registrationCount')),
    allowExternalRegistrations: toBool(attr(node, 'allowExternalRegistrations')),
    entryAccessLevel: attr(node, 'entryAccessLevel'),
    attributes: children(node, 'ActivityAttribute').map((a) => ({
      id: attr(a, 'id'),
      type: attr(a, 'type'),
      name: text(a, 'Name'),
      values: texts(a, 'Value'),
    })),
    registrations: each(node, 'ActivityRegistration', path, (r, p) => ({
      personId: attr(r, 'personId'),
      organisationId: attr(r, 'organisationId'),
      values: texts(r, 'AttributeValue'),
      modifiedAt: xsDateTime(attr(r, 'modifyDate'), ctx, `${p}/@modifyDate`),
    })),
    modifiedAt: when('modifyDate'),
  };
}

export function parseActivityList(xml: string, options: ParseOptions): Activity[] {
  const root = parseNativeDocument(xml, 'ActivityList');
  const list = each(root, 'Activity', 'ActivityList', (a, path) => activity(a, options, path));
  return validateList(ActivitySchema, list, 'ActivityList/Activity');
}

export function parseActivity(xml: string, options: ParseOptions): Activity {
  const root = parseNativeDocument(xml, 'Activity');
  return validateOne(ActivitySchema, activity(root, options, 'Activity'), 'Activity');
}
