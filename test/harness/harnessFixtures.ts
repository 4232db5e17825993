import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildProcessInvocationSpecRequest } from '../../src-main/node/harness';
import { tempDir } from '../helpers';

/** A workspace folder and a harness home in a fresh temp dir. */
export function harnessDirs(t: { after: (fn: () => void) => void }): { root: string; workspace: string; aspHome: string } {
  const dir = tempDir('harness');
  t.after(dir.cleanup);
  const workspace = join(dir.path, 'my workspace');
  mkdirSync(workspace);
  return { root: dir.path, workspace, aspHome: join(dir.path, 'home', 'harness') };
}

export function request(
  frontend: 'claude-code' | 'codex-cli',
  dirs: { workspace: string; aspHome: string },
  extra: Partial<BuildProcessInvocationSpecRequest> = {},
): BuildProcessInvocationSpecRequest {
  return {
    cpSessionId: 'ses_1',
    aspHome: dirs.aspHome,
    spec: {},
    provider: frontend === 'claude-code' ? 'anthropic' : 'openai',
    frontend,
    interactionMode: 'interactive',
    ioMode: 'pty',
    cwd: dirs.workspace,
    ...extra,
  };
}

/** Writes a transcript where Claude Code 2.1.330 keeps one: <config>/projects/<cwd with non-alnum as "-">/<id>.jsonl. */
export function writeClaudeTranscript(configDir: string, cwd: string, sessionId: string): string {
  const dir = join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(
    file,
    [
      JSON.stringify({ type: 'queue-operation', operation: 'enqueue', sessionId, content: 'hi' }),
      JSON.stringify({ parentUuid: null, type: 'user', cwd, sessionId, message: { role: 'user', content: 'hi' } }),
    ].join('\n') + '\n',
  );
  return file;
}

export const CLAUDE_KEY = '5b1e0f8e-6a0d-4c1e-9b51-2f5f3d0c9a11';
export const CODEX_KEY = '01a208ca-3134-71b3-a47d-708afa6b536e';
