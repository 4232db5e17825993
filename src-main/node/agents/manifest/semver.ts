/** Semantic Versioning 2.0.0 (semver.org's grammar): MAJOR.MINOR.PATCH, optional -prerelease and +build. */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isSemver(text: string): boolean {
  return SEMVER.test(text);
}

/** A likely intended version for a near miss ("1.2" → "1.2.0", "v1.2.3" → "1.2.3"), or null. */
export function suggestSemver(text: string): string | null {
  const trimmed = text.trim().replace(/^v/i, '');
  if (isSemver(trimmed)) return trimmed;
  const parts = /^(\d+)(?:\.(\d+))?$/.exec(trimmed);
  if (parts) return `${Number(parts[1])}.${Number(parts[2] ?? 0)}.0`;
  return null;
}
