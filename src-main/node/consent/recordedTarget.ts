/**
 * A target or action as the ledger keeps it. URLs lose their user info and their query and fragment: those are where
 * credentials and API keys travel (`https://user:pass@…`, `?api_key=…`), and the ledger must never hold a secret.
 * The scheme, host, port and path stay, which is what an audit needs. Other text is kept, clipped.
 */
export function recordedTarget(value: unknown, max = 2000): string | null {
  if (typeof value !== 'string') return null;
  return value.replace(/[a-z][a-z0-9+.-]*:\/\/[^\s]+/gi, (match) => {
    let url: URL;
    try {
      url = new URL(match);
    } catch {
      // Not parseable, so nobody can tell which part is secret: keep only the scheme.
      return `${match.slice(0, match.indexOf('://'))}://[unparsed URL withheld]`;
    }
    const userInfo = url.username || url.password ? '[REDACTED]@' : '';
    const rest = `${url.search ? '?[query withheld]' : ''}${url.hash ? '#[fragment withheld]' : ''}`;
    return `${url.protocol}//${userInfo}${url.host}${url.pathname}${rest}`;
  }).slice(0, max);
}
