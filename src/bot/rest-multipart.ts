/**
 * How the bot's discord.js client sends a request (its REST `makeRequest`): as discord.js does,
 * except that a body with files (docs/discord.md#attachments) is encoded to bytes first.
 *
 * discord.js builds that body as Node's own FormData and sends it with @discordjs/rest's undici 6,
 * through the process's global dispatcher, which is set by whichever undici loads first. In the
 * bot's process that is the Eventor client's undici 7, which does not know Node's FormData and
 * fails the upload ("action is not a function"). Node's own `Response` knows it: the bytes and the
 * boundary it gives are the same multipart body, and bytes go through every undici alike.
 */
import { DefaultRestOptions, type RESTOptions } from 'discord.js';

type MakeRequest = RESTOptions['makeRequest'];

export const makeRequest: MakeRequest = async (url, init) => {
  if (!(init.body instanceof FormData)) return DefaultRestOptions.makeRequest(url, init);
  const encoded = new Response(init.body);
  const headers = new Headers(init.headers as ConstructorParameters<typeof Headers>[0]);
  headers.set('content-type', encoded.headers.get('content-type')!);
  return DefaultRestOptions.makeRequest(url, {
    ...init,
    body: Buffer.from(await encoded.arrayBuffer()),
    headers: Object.fromEntries(headers),
  });
};
