/**
 * Whether a link the page asked to open may be handed to the system browser. Only plain http(s) URLs without
 * credentials qualify; file:, javascript:, custom app schemes and the like could run things on the machine.
 */
export function isSafeExternalUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.hostname !== '' && parsed.username === '' && parsed.password === '';
}
