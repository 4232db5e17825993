/**
 * The Content-Security-Policy of the window, sent as a response header by the app:// protocol handler (a header
 * cannot be removed by the page, unlike a <meta> tag). Scripts only from the app itself, no inline script, no
 * eval, no plugins, no frames, no form posts, no <base> rewriting. Inline styles stay allowed because React style
 * attributes and xterm's theme <style> elements need them; styles cannot run code.
 * The renderer talks to the host over a MessagePort, so it needs no network access at all.
 */
export const RENDERER_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every response of the app:// protocol. */
export const RENDERER_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': RENDERER_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};
