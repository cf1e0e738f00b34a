import type { SandboxContext } from './context.js';
import { apiErrors, invalidFormBody } from './errors.js';
import { noContent, ok, type Route, type RouteContext } from './http.js';
import { checkCommand, checkCommandList } from './limits.js';
import type { ApiCommand, ApiCommandOption } from './types.js';

/** Application command registration, global (`guildId` '') and per guild; stored for tests to read. */
export function commandRoutes(ctx: SandboxContext): Route[] {
  const { world } = ctx;

  const scope = (r: RouteContext): Map<string, ApiCommand> => {
    if (r.params['applicationId'] !== world.applicationId) throw apiErrors.missingAccess();
    const guildId = r.params['guildId'] ?? '';
    if (guildId && !world.guilds.has(guildId)) throw apiErrors.unknownGuild();
    let map = world.commands.get(guildId);
    if (!map) {
      map = new Map();
      world.commands.set(guildId, map);
    }
    return map;
  };

  /** Normalise a definition the way Discord echoes it; keep the id of a same-named command. */
  const store = (
    map: Map<string, ApiCommand>,
    raw: Record<string, unknown>,
    guildId: string,
    id?: string,
  ): ApiCommand => {
    const type = (raw['type'] as number | undefined) ?? 1;
    const existing = [...map.values()].find((c) => c.name === raw['name'] && c.type === type);
    const permissions = raw['default_member_permissions'];
    const command: ApiCommand = {
      id: id ?? existing?.id ?? world.ids.next(),
      application_id: world.applicationId,
      ...(guildId ? { guild_id: guildId } : {}),
      version: world.ids.next(),
      type,
      name: String(raw['name']),
      name_localizations: (raw['name_localizations'] as Record<string, string> | undefined) ?? null,
      description: String(raw['description'] ?? ''),
      description_localizations: (raw['description_localizations'] as Record<string, string> | undefined) ?? null,
      ...(Array.isArray(raw['options']) ? { options: raw['options'] as ApiCommandOption[] } : {}),
      default_member_permissions: permissions === undefined || permissions === null ? null : String(permissions),
      ...(guildId ? {} : { dm_permission: (raw['dm_permission'] as boolean | undefined) ?? true }),
      contexts: (raw['contexts'] as number[] | undefined) ?? null,
      integration_types: (raw['integration_types'] as number[] | undefined) ?? [0],
      nsfw: (raw['nsfw'] as boolean | undefined) ?? false,
    };
    if (existing && existing.id !== command.id) map.delete(existing.id);
    map.set(command.id, command);
    return command;
  };

  const commandOr404 = (map: Map<string, ApiCommand>, id: string | undefined): ApiCommand => {
    const command = map.get(id ?? '');
    if (!command) throw apiErrors.unknownCommand();
    return command;
  };

  const routes: Route[] = [];
  for (const base of [
    '/applications/:applicationId/commands',
    '/applications/:applicationId/guilds/:guildId/commands',
  ]) {
    routes.push(
      {
        method: 'GET',
        template: base,
        auth: true,
        handle: (r) => ok([...scope(r).values()]),
      },
      {
        method: 'PUT',
        template: base,
        auth: true,
        handle: (r) => {
          const map = scope(r);
          const errors = checkCommandList(r.body);
          if (errors.length > 0) throw invalidFormBody(errors);
          // Bulk overwrite: commands not in the list are deleted, same-named ones keep their ids.
          const previous = new Map(map);
          map.clear();
          const stored = (r.body as Record<string, unknown>[]).map((raw) => {
            const same = [...previous.values()].find(
              (c) => c.name === raw['name'] && c.type === ((raw['type'] as number | undefined) ?? 1),
            );
            return store(map, raw, r.params['guildId'] ?? '', same?.id);
          });
          world.changed('commands');
          return ok(stored);
        },
      },
      {
        method: 'POST',
        template: base,
        auth: true,
        handle: (r) => {
          const map = scope(r);
          const errors = checkCommand(r.body);
          if (errors.length > 0) throw invalidFormBody(errors);
          const existed = [...map.values()].some((c) => c.name === (r.body as { name?: string }).name);
          const command = store(map, r.body as Record<string, unknown>, r.params['guildId'] ?? '');
          world.changed('commands');
          return { status: existed ? 200 : 201, body: command };
        },
      },
      {
        method: 'GET',
        template: `${base}/:commandId`,
        auth: true,
        handle: (r) => ok(commandOr404(scope(r), r.params['commandId'])),
      },
      {
        method: 'PATCH',
        template: `${base}/:commandId`,
        auth: true,
        handle: (r) => {
          const map = scope(r);
          const current = commandOr404(map, r.params['commandId']);
          const merged = { ...current, ...(r.body as Record<string, unknown>) };
          const errors = checkCommand(merged);
          if (errors.length > 0) throw invalidFormBody(errors);
          map.delete(current.id);
          const command = store(map, merged, r.params['guildId'] ?? '', current.id);
          world.changed('commands');
          return ok(command);
        },
      },
      {
        method: 'DELETE',
        template: `${base}/:commandId`,
        auth: true,
        handle: (r) => {
          const map = scope(r);
          commandOr404(map, r.params['commandId']);
          map.delete(r.params['commandId']!);
          world.changed('commands');
          return noContent();
        },
      },
    );
  }
  return routes;
}
