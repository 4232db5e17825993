import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from '../base/durableWrite';

/** Our own Claude Code config dir (CLAUDE_CONFIG_DIR) under the harness home; the user's ~/.claude stays untouched. */
export function claudeConfigDir(aspHome: string): string {
  return join(aspHome, 'claude-code', 'config');
}

/**
 * Pre-answers what Claude Code asks before its first prompt, in `<config dir>/.claude.json` (the file it keeps
 * there when CLAUDE_CONFIG_DIR is set; checked against 2.1.330): onboarding (theme, tips), the workspace trust
 * dialog for `cwd`, and "Detected a custom API key in your environment. Do you want to use this API key?" for the
 * ANTHROPIC_API_KEY the host passes (the vault proxy's stand-in, never a real key). Claude Code remembers that
 * answer by the key's last 20 characters, so that is all that is stored. Keys the CLI wrote itself are kept.
 */
export function materializeClaudeCodeHome(configDir: string, cwd: string, apiKey?: string): string[] {
  const warnings: string[] = [];
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const file = join(configDir, '.claude.json');
  let state: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) state = parsed as Record<string, unknown>;
      else warnings.push(`${file} did not hold a JSON object; it was rewritten`);
    } catch {
      warnings.push(`${file} was not valid JSON; it was rewritten`);
    }
  }
  const projects = isRecord(state.projects) ? state.projects : {};
  const project = isRecord(projects[cwd]) ? projects[cwd] : {};
  const responses = isRecord(state.customApiKeyResponses) ? state.customApiKeyResponses : {};
  const approved = Array.isArray(responses.approved) ? responses.approved.filter((k): k is string => typeof k === 'string') : [];
  const rejected = Array.isArray(responses.rejected) ? responses.rejected.filter((k): k is string => typeof k === 'string') : [];
  const keyTail = apiKey?.trim().slice(-20);
  const next = {
    ...state,
    hasCompletedOnboarding: true,
    ...(keyTail
      ? { customApiKeyResponses: { ...responses, approved: approved.includes(keyTail) ? approved : [...approved, keyTail], rejected: rejected.filter((k) => k !== keyTail) } }
      : {}),
    projects: { ...projects, [cwd]: { ...project, hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
  };
  // Mode 0600: the CLIs keep their own state (and, for Claude Code, approved key tails) here.
  writeFileDurably(file, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  return warnings;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Claude Code's name for a project folder: every character but [A-Za-z0-9] becomes "-" (2.1.330; a name longer
 * than 200 characters is cut there and gets a hash suffix, which isProjectDirOf accepts by prefix).
 */
export function claudeProjectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, '-');
}

const NAME_LIMIT = 200;

function isProjectDirOf(dirName: string, cwd: string): boolean {
  const name = claudeProjectDirName(cwd);
  if (name.length <= NAME_LIMIT) return dirName === name;
  return dirName.startsWith(`${name.slice(0, NAME_LIMIT)}-`);
}

export type ClaudeTranscript = { file: string; projectDir: string; recordedCwd?: string; belongsTo: (cwd: string) => boolean };

/**
 * Finds the transcript `<config dir>/projects/<project>/<session id>.jsonl` Claude Code wrote for a session, and
 * the cwd it recorded. `--resume <id>` only searches the project folder of the cwd it is started in, so where the
 * transcript lives decides whether a resume can work.
 */
export function findClaudeTranscript(configDir: string, sessionId: string): ClaudeTranscript | undefined {
  const projectsDir = join(configDir, 'projects');
  if (!existsSync(projectsDir)) return undefined;
  for (const entry of readdirSync(projectsDir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = join(projectsDir, entry.name, `${sessionId}.jsonl`);
    if (!existsSync(file)) continue;
    return { file, projectDir: entry.name, recordedCwd: recordedCwd(file), belongsTo: (cwd) => isProjectDirOf(entry.name, cwd) };
  }
  return undefined;
}

/** The first `"cwd"` a transcript records (its lines are JSON objects; only the head of the file is read). */
function recordedCwd(file: string): string | undefined {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(256 * 1024);
    const length = readSync(fd, buffer, 0, buffer.length, 0);
    for (const line of buffer.toString('utf8', 0, length).split('\n')) {
      try {
        const record: unknown = JSON.parse(line);
        if (isRecord(record) && typeof record.cwd === 'string') return record.cwd;
      } catch {
        // a cut-off last line or a non-JSON line: keep looking
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}
