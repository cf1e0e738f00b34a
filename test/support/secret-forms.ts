/**
 * The forms a secret takes when other code writes it into text, computed independently of the
 * logger's own list, so tests can look for each of them in what was written.
 */
export function secretForms(secret: string): Record<string, string> {
  const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
  const jsonAscii = (s: string, upper: boolean) =>
    JSON.stringify(s)
      .slice(1, -1)
      .replace(
        /[\u0080-\uffff]/g,
        (c) =>
          `\\u${(upper ? c.charCodeAt(0).toString(16).toUpperCase() : c.charCodeAt(0).toString(16)).padStart(4, '0')}`,
      );
  const form = new URLSearchParams({ x: secret }).toString().slice(2);
  return {
    raw: secret,
    json: JSON.stringify(secret).slice(1, -1),
    jsonTwice: JSON.stringify(JSON.stringify(secret)).slice(1, -1),
    jsonAsciiLower: jsonAscii(secret, false),
    jsonAsciiUpper: jsonAscii(secret, true),
    uriComponent: encodeURIComponent(secret),
    uriComponentLower: lowerHex(encodeURIComponent(secret)),
    uri: encodeURI(secret),
    form,
    formLower: lowerHex(form),
    plusForSpace: encodeURIComponent(secret).replace(/%20/g, '+'),
    html: secret.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    base64: Buffer.from(secret, 'utf8').toString('base64'),
    base64url: Buffer.from(secret, 'utf8').toString('base64url'),
  };
}
