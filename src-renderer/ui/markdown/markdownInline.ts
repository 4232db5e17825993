/**
 * Inline Markdown for cards, as plain data: code spans, strong, emphasis, links and backslash escapes. Nothing here
 * becomes HTML; a link keeps its address only when it is one the user could safely be shown (http, https, mailto,
 * or a relative path): `javascript:`, `data:` and other schemes stay literal text.
 */
export type Inline = { kind: 'text'; text: string } | { kind: 'code'; text: string } | { kind: 'strong'; text: string } | { kind: 'em'; text: string } | { kind: 'link'; text: string; href: string };

// A backslash before ASCII punctuation makes it literal (CommonMark); then code, strong, emphasis, links.
const INLINE = /\\([!-/:-@[-`{-~])|`([^`]+)`|\*\*([^*]+)\*\*|__([^_]+)__|\*([^*\s][^*]*)\*|\b_([^_\s][^_]*)_\b|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Schemes a link may show; anything else with a scheme (javascript:, data:, vbscript:, file: …) is not a link. */
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);

/** A link address safe to show: one of SAFE_SCHEMES, or no scheme at all (a relative path or #anchor). */
export function isSafeHref(href: string): boolean {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f]/.test(href)) return false;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href);
  return !scheme || SAFE_SCHEMES.has(scheme[1].toLowerCase());
}

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pushText = (value: string): void => {
    const previous = out[out.length - 1];
    if (previous?.kind === 'text') previous.text += value;
    else out.push({ kind: 'text', text: value });
  };
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) pushText(text.slice(last, m.index));
    if (m[1] !== undefined) pushText(m[1]);
    else if (m[2] !== undefined) out.push({ kind: 'code', text: m[2] });
    else if (m[3] !== undefined || m[4] !== undefined) out.push({ kind: 'strong', text: m[3] ?? m[4] });
    else if (m[5] !== undefined || m[6] !== undefined) out.push({ kind: 'em', text: m[5] ?? m[6] });
    else if (isSafeHref(m[8])) out.push({ kind: 'link', text: m[7], href: m[8] });
    else pushText(m[0]);
    last = m.index + m[0].length;
  }
  if (last < text.length) pushText(text.slice(last));
  return out;
}
