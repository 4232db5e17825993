// Which capability each Claude Code tool call is asked for (docs/harness.md, "Consent for CLI agents"), on a real
// folder with real symbolic links.
import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { claudeToolCapability } from '../../src-main/node/harness/permissionPrompt';
import { tempDir } from '../helpers';

function workspace(t: { after: (fn: () => void) => void }): string {
  const dir = tempDir('claude-tools');
  t.after(dir.cleanup);
  const ws = join(dir.path, 'my ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  return ws;
}

test('file tools: writers ask files.write, readers files.read, on the path relative to the workspace', (t) => {
  const ws = workspace(t);
  const pick = (tool: string, input: Record<string, unknown>) => {
    const use = claudeToolCapability(tool, input, ws);
    assert.ok(use.ok, `${tool}: ${JSON.stringify(use)}`);
    return [use.capability, use.target];
  };
  assert.deepEqual(pick('Write', { file_path: join(ws, 'src/new/file.ts'), content: '' }), ['files.write', 'src/new/file.ts']);
  assert.deepEqual(pick('Edit', { file_path: join(ws, 'src/a.ts') }), ['files.write', 'src/a.ts']);
  assert.deepEqual(pick('MultiEdit', { file_path: 'src/b.ts' }), ['files.write', 'src/b.ts'], 'a relative path is taken from the workspace');
  assert.deepEqual(pick('NotebookEdit', { notebook_path: join(ws, 'n.ipynb') }), ['files.write', 'n.ipynb']);
  assert.deepEqual(pick('Read', { file_path: join(ws, 'src/./a.ts') }), ['files.read', 'src/a.ts']);
  assert.deepEqual(pick('Grep', { pattern: 'x', path: join(ws, 'src') }), ['files.read', 'src']);
  assert.deepEqual(pick('Glob', { pattern: '**/*.ts' }), ['files.read', ''], 'no path: the workspace itself');
});

test('file tools: outside the workspace, through a link out of it, or through a dangling link is refused', (t) => {
  const ws = workspace(t);
  symlinkSync('/etc', join(ws, 'etc'));
  symlinkSync(join(ws, '..', 'nowhere', 'x'), join(ws, 'dangling'));
  symlinkSync(join(ws, 'src'), join(ws, 'src-link'));
  for (const file_path of ['/etc/passwd', join(ws, '../sibling.txt'), join(ws, 'etc/hosts'), 'src/../../escape.txt']) {
    const use = claudeToolCapability('Write', { file_path, content: '' }, ws);
    assert.equal(use.ok, false, file_path);
    assert.match((use as { reason: string }).reason, /outside the workspace/);
  }
  const dangling = claudeToolCapability('Write', { file_path: join(ws, 'dangling'), content: '' }, ws);
  assert.equal(dangling.ok, false);
  assert.match((dangling as { reason: string }).reason, /symbolic link that points nowhere/);
  // A link that stays inside is judged by where it leads.
  const inside = claudeToolCapability('Write', { file_path: join(ws, 'src-link/a.ts'), content: '' }, ws);
  assert.deepEqual(inside.ok && [inside.capability, inside.target], ['files.write', 'src/a.ts']);
  assert.equal(claudeToolCapability('Write', { content: '' }, ws).ok, false, 'a Write without a file');
});

test('Bash asks process.exec of exactly its command; WebFetch asks network GET on its host; the rest is refused', (t) => {
  const ws = workspace(t);
  const bash = claudeToolCapability('Bash', { command: 'npm test -- --watch=false', description: 'run the tests' }, ws);
  assert.deepEqual(bash.ok && [bash.capability, bash.action, bash.summary], ['process.exec', 'npm test -- --watch=false', 'run "npm test -- --watch=false" (run the tests)']);
  assert.equal(claudeToolCapability('Bash', { command: '' }, ws).ok, false);
  const fetch = claudeToolCapability('WebFetch', { url: 'https://Docs.Example.org/a?b=1', prompt: 'x' }, ws);
  assert.deepEqual(fetch.ok && [fetch.capability, fetch.method, fetch.target], ['network', 'GET', 'https://Docs.Example.org/a?b=1']);
  for (const url of ['file:///etc/passwd', 'not a url']) assert.equal(claudeToolCapability('WebFetch', { url }, ws).ok, false, url);
  for (const tool of ['WebSearch', 'Task', 'mcp__github__create_issue', 'KillShell']) {
    const use = claudeToolCapability(tool, {}, ws);
    assert.equal(use.ok, false);
    assert.match((use as { reason: string }).reason, new RegExp(`no capability for Claude Code's tool "${tool}"`));
  }
});
