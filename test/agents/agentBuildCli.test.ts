// `omni agent build DIR` (and `omni agent new`): user agents compiled through the real CLI with the project's
// AssemblyScript and the SDK, then run with `omni agent run`; broken agents fail with the compiler's diagnostics.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { tempDir } from '../helpers';
import { omniCli } from '../omniCli';
import { manifestText } from './agentFolders';

const cli = omniCli();

function omni(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', timeout: 90_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** An agent folder with manifest.toml and assembly/index.ts, as the bundled agents are laid out. */
function agentFolder(parent: string, name: string, manifest: string, source: string): string {
  const folder = join(parent, name);
  mkdirSync(join(folder, 'assembly'), { recursive: true });
  writeFileSync(join(folder, 'manifest.toml'), manifest);
  writeFileSync(join(folder, 'assembly', 'index.ts'), source);
  return folder;
}

const GREETER = `import { newChunkId, omni_alloc, output, readInput } from 'omni-sdk';
export { omni_alloc };
export function omni_invoke(ptr: usize, len: i32): void {
  const prompt = readInput(ptr, len).prompt;
  output('text/markdown', '**Hello, ' + prompt + '!** (' + prompt.length.toString() + ' characters)', newChunkId());
}
`;

test('omni agent build: compiles a user agent where its entry says, prints size and hash; omni agent run runs it', { timeout: 180_000 }, (t) => {
  const dir = tempDir('agent-build');
  t.after(dir.cleanup);
  const folder = agentFolder(dir.path, 'greeter', manifestText({ name: '"greeter"', entry: '"build/greeter.wasm"', capabilities: '[]', 'ui.hints': '[]' }), GREETER);

  const built = omni('agent', 'build', folder);
  assert.equal(built.code, 0, built.err + built.out);
  const wasm = readFileSync(join(folder, 'build', 'greeter.wasm'));
  assert.match(built.out, new RegExp(`built "greeter" 0\\.1\\.0: .*build/greeter\\.wasm\\n  ${wasm.length} bytes .*sha256 ${createHash('sha256').update(wasm).digest('hex')}`));
  assert.match(built.out, /imports omni\.output: all allowed by capabilities \[\]/);
  assert.equal(omni('agent', 'validate', folder).code, 0, 'the built agent is a valid agent');

  mkdirSync(join(dir.path, 'ws'));
  const run = omni('agent', 'run', folder, '--workspace', join(dir.path, 'ws'), '--prompt', 'Ada', '--home', join(dir.path, 'home'));
  assert.equal(run.code, 0, run.err);
  const outputs = run.out.trim().split('\n').map((line) => JSON.parse(line) as { type: string; data?: string; agent_id?: string });
  assert.ok(outputs.some((event) => event.type === 'output' && event.agent_id === 'greeter' && event.data === '**Hello, Ada!** (3 characters)'), run.out);
});

test('omni agent build: a compile error prints the compiler diagnostics (file, line, code) and exits 1, writing nothing', { timeout: 120_000 }, (t) => {
  const dir = tempDir('agent-build');
  t.after(dir.cleanup);
  const broken = GREETER.replace("const prompt = readInput(ptr, len).prompt;", "const prompt: i32 = readInput(ptr, len).prompt;");
  const folder = agentFolder(dir.path, 'broken', manifestText({ name: '"broken"', capabilities: '[]' }), broken);
  const result = omni('agent', 'build', folder);
  assert.equal(result.code, 1, result.out);
  assert.match(result.err, /build failed: .*assembly\/index\.ts did not compile/);
  assert.match(result.err, /TS2322: Type '~lib\/string\/String' is not assignable to type 'i32'/);
  assert.match(result.err, /assembly\/index\.ts\(4,23\)/);
  assert.equal(existsSync(join(folder, 'agent.wasm')), false);
});

test('omni agent build: a module importing a capability the manifest does not declare is refused, as the sandbox would', { timeout: 120_000 }, (t) => {
  const dir = tempDir('agent-build');
  t.after(dir.cleanup);
  const reader = `import { newChunkId, omni_alloc, output, readFile } from 'omni-sdk';
export { omni_alloc };
export function omni_invoke(ptr: usize, len: i32): void {
  output('text/markdown', readFile('README.md').text, newChunkId());
}
`;
  const folder = agentFolder(dir.path, 'sneaky', manifestText({ name: '"sneaky"', capabilities: '["codegen"]' }), reader);
  const result = omni('agent', 'build', folder);
  assert.equal(result.code, 1, result.out);
  assert.match(result.err, /would be refused by the sandbox, so it was not written/);
  assert.match(result.err, /not_declared: it imports omni\.files_read, which needs the capability "files\.read"/);
  assert.equal(existsSync(join(folder, 'agent.wasm')), false);
});

test('omni agent build: manifest errors are the validator\'s, before anything compiles; a missing source is named', (t) => {
  const dir = tempDir('agent-build');
  t.after(dir.cleanup);
  const typo = agentFolder(dir.path, 'typo', manifestText({ capabilities: '["files.raed"]' }), GREETER);
  const bad = omni('agent', 'build', typo);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /manifest\.toml is not valid, so nothing was built/);
  assert.match(bad.err, /manifest\.toml:6: error: capabilities\[0\]: .*files\.raed/);

  const empty = join(dir.path, 'empty');
  mkdirSync(empty);
  writeFileSync(join(empty, 'manifest.toml'), manifestText());
  const missing = omni('agent', 'build', empty);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /no assembly\/index\.ts in .*empty/);
});

test('omni agent new: a folder from the bundled template that builds and runs; refuses a non-empty folder and a bad name', { timeout: 180_000 }, (t) => {
  const dir = tempDir('agent-new');
  t.after(dir.cleanup);
  const folder = join(dir.path, 'mine');
  const made = omni('agent', 'new', folder, '--name', 'my-summary');
  assert.equal(made.code, 0, made.err);
  assert.match(readFileSync(join(folder, 'manifest.toml'), 'utf8'), /^name = "my-summary"$/m);
  assert.equal(omni('agent', 'build', folder).code, 0);
  const ws = join(dir.path, 'ws');
  mkdirSync(ws);
  writeFileSync(join(ws, 'README.md'), '# Mine\n');
  const run = omni('agent', 'run', folder, '--workspace', ws, '--prompt', 'go', '--home', join(dir.path, 'home'), '--grant', 'files.read@10m');
  assert.equal(run.code, 0, run.err);
  assert.match(run.out, /"agent_id":"my-summary"/);
  assert.match(run.out, /> # Mine/);

  const again = omni('agent', 'new', folder, '--name', 'other');
  assert.equal(again.code, 2);
  assert.match(again.err, /is not empty/);
  const badName = omni('agent', 'new', join(dir.path, 'bad'), '--name', '');
  assert.equal(badName.code, 2);
  assert.match(badName.err, /does not make a valid manifest/);
  assert.equal(existsSync(join(dir.path, 'bad')), false);
});

test('a built agent that aborts reports its message and source location in its log before it stops', { timeout: 120_000 }, (t) => {
  const dir = tempDir('agent-build');
  t.after(dir.cleanup);
  const aborting = `import { omni_alloc } from 'omni-sdk';
export { omni_alloc };
export function omni_invoke(ptr: usize, len: i32): void {
  throw new Error('the answer was not 42');
}
`;
  const folder = agentFolder(dir.path, 'thrower', manifestText({ name: '"thrower"', capabilities: '[]' }), aborting);
  const built = omni('agent', 'build', folder);
  assert.equal(built.code, 0, built.err);
  mkdirSync(join(dir.path, 'ws'));
  const run = omni('agent', 'run', folder, '--workspace', join(dir.path, 'ws'), '--prompt', 'go', '--home', join(dir.path, 'home'));
  assert.equal(run.code, 1, run.out);
  assert.match(run.out, /agent aborted: the answer was not 42 at assembly\/index\.ts:4:3/);
});

test('omni agent build: an agent that does not use the SDK compiles, but its env.abort import is refused with what to do', { timeout: 120_000 }, (t) => {
  const dir = tempDir('agent-build');
  t.after(dir.cleanup);
  const bare = 'export function omni_alloc(len: i32): usize { return heap.alloc(<usize>len); }\nexport function omni_invoke(ptr: usize, len: i32): void {}\n';
  const folder = agentFolder(dir.path, 'bare', manifestText({ name: '"bare"', capabilities: '[]' }), bare);
  const result = omni('agent', 'build', folder);
  assert.equal(result.code, 1, result.out);
  assert.match(result.err, /unknown_import: it imports env\.abort .*import from 'omni-sdk'/);
  assert.equal(existsSync(join(folder, 'agent.wasm')), false);
});
