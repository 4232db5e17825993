// What a consent prompt or a grant means, in the words a person reads: a command as they would type it, with the
// folder it runs in; a scope as a sentence ("all files in /home/ana/ws, read only"), never a bare glob or argv JSON.

/** A command line an agent would run, as a shell shows it, and the full folder it runs in (when known). */
export interface CommandWords {
  line: string;
  folder: string | null;
  pty: boolean;
}

/** The quoting a POSIX shell would need for one argument, so the line reads as what would be typed. */
function shellWord(arg: string): string {
  if (arg !== '' && /^[A-Za-z0-9_./:=@%+,-]+$/.test(arg)) return arg;
  // Double quotes read best for the usual case (code given to -e, a message); what would break them is escaped.
  return `"${arg.replace(/(["\\$`])/g, '\\$1')}"`;
}

/** `folder` joined to `relative` ("." is the folder itself), with / separators as the host reports paths. */
function joinFolder(folder: string, relative: string): string {
  if (relative === '.' || relative === '') return folder;
  if (relative.startsWith('/')) return relative;
  return `${folder.replace(/\/+$/, '')}/${relative}`;
}

/**
 * The command a process.exec prompt or grant names, when it names it as the WASM agents' shell tool does:
 * `["node","-e","…"] in <folder relative to the workspace>[ (pty)]`. Null for any other form.
 */
export function commandWords(action: string, workspace: string | null): CommandWords | null {
  const argvForm = /^(\[.*\]) in (.+?)( \(pty\))?$/s.exec(action);
  if (argvForm) {
    let argv: unknown;
    try {
      argv = JSON.parse(argvForm[1]);
    } catch {
      argv = null;
    }
    if (Array.isArray(argv) && argv.length > 0 && argv.every((a) => typeof a === 'string')) {
      return { line: (argv as string[]).map(shellWord).join(' '), folder: workspace ? joinFolder(workspace, argvForm[2]) : argvForm[2], pty: argvForm[3] !== undefined };
    }
  }
  // Other forms (a harness's or ACP agent's command line, a native launch, "execute: Run tests") do not say the
  // folder they run in, so they are shown exactly as the host gave them.
  return null;
}

const ACCESS: Record<string, string> = {
  'files.read': 'read only',
  'files.write': 'write (create, change or replace)',
};

/**
 * What an Allow gives, as a sentence: "all files in /ws, read only", "the files in /ws/demo-lib/, write …",
 * "only /ws/notes.md, read only", "GET requests to example.org and its subdomains". `scope` is the host's pattern.
 */
export function scopeSentence(capability: string, scope: string | null, workspace: string | null): string {
  const where = workspace ?? 'the workspace';
  if (capability === 'files.read' || capability === 'files.write') {
    const access = ACCESS[capability];
    if (scope === null || scope === '**' || scope === '**/*') return `all files in ${where}, ${access}`;
    const under = /^(.*[^*/])\/\*\*$/.exec(scope);
    if (under && !/[*?[\]{}]/.test(under[1])) return `all files in ${joinFolder(where, under[1])}/, ${access}`;
    if (!/[*?[\]{}]/.test(scope)) return `only ${joinFolder(where, scope)}, ${access}`;
    return `files matching ${scope} in ${where}, ${access}`;
  }
  if (capability === 'network') {
    if (scope === null) return 'reading web pages (GET) on any site';
    const sub = /^\*\.(.+)$/.exec(scope);
    return sub ? `reading (GET) from the subdomains of ${sub[1]}` : `reading (GET) from ${scope}`;
  }
  if (capability === 'memory') return "this agent's own saved memory";
  if (capability.startsWith('oauth:')) return `your ${capability.slice('oauth:'.length)} connection, through the app (the agent never sees the key)`;
  return scope === null ? `${capability}, with no narrower scope` : `${capability} on ${scope}`;
}

/** "Auto-deny in 4:58" for a deadline; null when the host set none (the prompt waits for an answer). */
export function autoDenyText(deadline: number | null | undefined, now: number, format: (ms: number) => string): string | null {
  if (deadline === null || deadline === undefined) return null;
  return `Auto-deny in ${format(deadline - now)}`;
}
