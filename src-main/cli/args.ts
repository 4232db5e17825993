/** A mistake in how a command was called: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

/**
 * Parses `--name value`, `--name=value` and `--flag`; a 'values' option may be given several times and collects a
 * list. Anything not in `known` is a UsageError naming it.
 */
export function parseFlags(args: string[], known: Record<string, 'value' | 'values' | 'flag'>): Record<string, string | true | string[]> {
  const flags: Record<string, string | true | string[]> = {};
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [name, inline] = arg.startsWith('--') ? arg.slice(2).split(/=(.*)/s, 2) : [undefined, undefined];
    if (!name || !(name in known)) throw new UsageError(`unknown option "${arg}"`);
    if (known[name] === 'flag') {
      flags[name] = true;
    } else {
      const value = inline ?? args[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`option --${name} needs a value`);
      if (known[name] === 'values') flags[name] = [...((flags[name] as string[] | undefined) ?? []), value];
      else flags[name] = value;
    }
  }
  return flags;
}
