import { describeFound, type ManifestIssue, type ManifestIssueCode } from './manifestIssue';

/** Collects the issues of one manifest file, placing each key on its line. */
export class ManifestIssues {
  readonly list: ManifestIssue[] = [];

  constructor(
    readonly file: string,
    private readonly keyLines: ReadonlyMap<string, number> = new Map(),
  ) {}

  get hasErrors(): boolean {
    return this.list.some((issue) => issue.severity === 'error');
  }

  error(code: ManifestIssueCode, key: string | null, expected: string, found: string, fix: string): void {
    this.add('error', code, key, expected, found, fix);
  }

  warning(code: ManifestIssueCode, key: string | null, expected: string, found: string, fix: string): void {
    this.add('warning', code, key, expected, found, fix);
  }

  /** The usual "this key holds the wrong kind of value" error. */
  wrongType(key: string, expected: string, value: unknown, fix: string): void {
    this.error(value === undefined ? 'missing_key' : 'wrong_type', key, expected, describeFound(value), fix);
  }

  /** Appends issues found elsewhere (TOML syntax, file access) as they are. */
  push(issue: ManifestIssue): void {
    this.list.push(issue);
  }

  private add(severity: ManifestIssue['severity'], code: ManifestIssueCode, key: string | null, expected: string, found: string, fix: string): void {
    this.list.push({ severity, code, file: this.file, key, line: this.lineOf(key), column: null, expected, found, fix });
  }

  /** `capabilities[2]` sits on the line of `capabilities`; a missing `resources.mem` on the `[resources]` line. */
  private lineOf(key: string | null): number | null {
    let path = key?.replace(/\[\d+\]$/, '') ?? null;
    while (path) {
      const line = this.keyLines.get(path);
      if (line !== undefined) return line;
      const dot = path.lastIndexOf('.');
      path = dot < 0 ? null : path.slice(0, dot);
    }
    return null;
  }
}
