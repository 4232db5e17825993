/** A word is left bare only when a POSIX shell would read it back unchanged. */
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;

function quoteWord(word: string): string {
  if (word !== '' && SAFE_WORD.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * The copy/paste form of an invocation, for people only: `cd DIR && VAR=value ... argv...`, each word quoted for a
 * POSIX shell. The host never executes it (argv is authoritative, spec §3.1); values of variables whose names say
 * they hold a credential are shown as `<redacted>` so the string can be pasted into a bug report.
 */
export function formatDisplayCommand(argv: string[], cwd: string, env: Record<string, string>): string {
  const assignments = Object.keys(env)
    .sort()
    .map((name) => `${name}=${looksSecret(name) ? '<redacted>' : quoteWord(env[name])}`);
  return [`cd ${quoteWord(cwd)} &&`, ...assignments, ...argv.map(quoteWord)].join(' ');
}

function looksSecret(name: string): boolean {
  return /(KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL)/i.test(name);
}
