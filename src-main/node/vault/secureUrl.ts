import { isLoopbackUrl } from './providers';
import { CredentialRequestError } from './vaultErrors';

/**
 * A URL a credential or a sign-in goes to: https, or plain http only toward this machine (127.0.0.1, localhost, ::1),
 * so a key or a token never crosses a network in the clear; no user, password, query or fragment in it. `what`
 * names the field in the error ("the base URL", "the issuer"), `example` shows a good one.
 */
export function checkSecureUrl(value: string | undefined | null, what: string, example: string): URL {
  const text = value?.trim() ?? '';
  if (!text) throw new CredentialRequestError(`${what} is empty; give one like ${example}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CredentialRequestError(`${what} "${text}" is not a URL; give one like ${example}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url))) {
    throw new CredentialRequestError(`${what} must use https:// (plain http only on this machine: 127.0.0.1 or localhost), so nothing secret crosses a network in the clear`);
  }
  if (url.username || url.password || url.search || url.hash) throw new CredentialRequestError(`${what} must not carry a user, password, query or fragment`);
  return url;
}
