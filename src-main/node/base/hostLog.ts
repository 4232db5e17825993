import { inspect } from 'node:util';

export interface HostLogOptions {
  /**
   * Takes secrets out of a finished line before it is written (the vault's scrubber: registered values and token
   * patterns). Applied to the whole formatted line, so a token in an error's message, stack, cause or properties
   * is caught wherever inspect put it.
   */
  scrub: (text: string) => string;
  /** Where lines go; standard error unless given. Looked up per line, so a redirected stderr is honoured. */
  write?: (line: string) => void;
  /** Starts every line, e.g. "[host]". */
  prefix?: string;
}

/** Deep enough to show a cause chain; beyond it inspect prints [Object], which hides rather than leaks. */
const INSPECT_OPTIONS = { colors: false, depth: 6, breakLength: Infinity } as const;

/**
 * The host's log: every line it prints about failures goes through here, and through the secret scrubber, because
 * an error message is exactly where a token ends up by accident (a failed request quoting its URL or headers).
 * Use it instead of console.* anywhere in the host.
 */
export class HostLog {
  private readonly scrub: (text: string) => string;
  private readonly write: (line: string) => void;
  private readonly prefix: string;

  constructor(options: HostLogOptions) {
    this.scrub = options.scrub;
    this.write = options.write ?? ((line) => void process.stderr.write(line));
    this.prefix = options.prefix ? `${options.prefix} ` : '';
  }

  error(...parts: unknown[]): void {
    this.write(`${this.format(parts)}\n`);
  }

  /** Text with secrets taken out, for messages that travel elsewhere (e.g. a fatal error sent to the Electron main process). */
  redact(text: string): string {
    return this.scrub(text);
  }

  private format(parts: readonly unknown[]): string {
    // Strings are joined as they are, not handed to util.format: a "%s" inside an error message must not eat the
    // next argument.
    const text = parts.map((part) => (typeof part === 'string' ? part : inspect(part, INSPECT_OPTIONS))).join(' ');
    return this.scrub(this.prefix + text);
  }
}
