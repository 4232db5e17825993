/**
 * The sandbox-exec (Seatbelt) profile for a run on macOS: deny by default; read the system and the workspace but
 * not the secrets places; write only the workspace (minus .meta) and the run's temp directory; processes may fork
 * and exec and signal each other; network only to the app's allowlist proxy on 127.0.0.1:<port>, or none.
 * Pure string work, so it is unit-tested here; running it needs a Mac (see docs/native-sandbox.md).
 */
export interface MacosProfileInput {
  workspace: string;
  tmpDir: string;
  /** Absolute paths the run may not read. */
  hiddenPaths: readonly string[];
  /** The proxy's port on 127.0.0.1, or null: no network at all. */
  proxyPort: number | null;
}

/** A string literal in the profile language: backslashes and double quotes escaped, control characters refused. */
export function sbplString(value: string): string {
  if ([...value].some((c) => c.charCodeAt(0) < 0x20)) throw new Error(`a sandbox profile path cannot contain control characters: ${JSON.stringify(value)}`);
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function macosProfile(input: MacosProfileInput): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(import "bsd.sb")',
    '(allow process-fork)',
    '(allow process-exec)',
    '(allow signal (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow mach-lookup (global-name "com.apple.system.logger") (global-name "com.apple.system.notification_center"))',
    '(allow file-read*)',
  ];
  if (input.hiddenPaths.length > 0) {
    lines.push(`(deny file-read* ${input.hiddenPaths.map((p) => `(subpath ${sbplString(p)})`).join(' ')})`);
  }
  lines.push(
    `(allow file-write* (subpath ${sbplString(input.workspace)}) (subpath ${sbplString(input.tmpDir)}) (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))`,
    `(deny file-write* (subpath ${sbplString(`${input.workspace}/.meta`)}))`,
  );
  if (input.proxyPort !== null) {
    if (!Number.isInteger(input.proxyPort) || input.proxyPort <= 0 || input.proxyPort > 65535) throw new Error(`bad proxy port ${input.proxyPort}`);
    lines.push(`(allow network-outbound (remote tcp "localhost:${input.proxyPort}"))`);
  }
  return `${lines.join('\n')}\n`;
}
