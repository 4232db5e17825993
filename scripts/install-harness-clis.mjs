// Installs the real Claude Code and Codex CLIs and the Claude Agent SDK into a test-only, gitignored folder
// (.cache/harness-clis), on demand, for the harness integration tests. They are kept out of the project's
// dependencies on purpose: with their native binaries they weigh ~1 GB, which no user's plain `npm install` should
// download. The host loads the Agent SDK at run time from a configured folder (OMNI_AGENT_SDK_DIR), never bundled.
//
//   node scripts/install-harness-clis.mjs           install the pinned versions unless already there
//   node scripts/install-harness-clis.mjs --print   print the binaries' paths and the Agent SDK's folder (JSON)
//                                                   without installing
//
// The binaries printed are the CLIs' own executables, not their Node launchers: a host that kills a harness must
// kill the real process (a Node wrapper does not forward SIGKILL).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.cache', 'harness-clis');
// Pinned: the flags in src-main/node/harness were checked against these versions (docs/harness.md).
// The Agent SDK 0.3.330 is the SDK release of Claude Code 2.1.330 (same build number).
const PACKAGES = { '@anthropic-ai/claude-code': '2.1.330', '@openai/codex': '0.169.0', '@anthropic-ai/claude-agent-sdk': '0.3.330' };

function binaries() {
  const modules = join(dir, 'node_modules');
  const codexTriple = { 'linux-x64': 'x86_64-unknown-linux-musl', 'linux-arm64': 'aarch64-unknown-linux-musl', 'darwin-arm64': 'aarch64-apple-darwin', 'darwin-x64': 'x86_64-apple-darwin' }[`${platform()}-${arch()}`];
  return {
    // The package's bin/claude.exe is replaced by the native binary (a hard link to the platform package's).
    claude: join(modules, `@anthropic-ai/claude-code-${platform()}-${arch()}`, 'claude'),
    codex: join(modules, `@openai/codex-${platform()}-${arch()}`, 'vendor', String(codexTriple), 'bin', 'codex'),
    // A folder, not a binary: what runTurnNonInteractive's agentSdkDir / OMNI_AGENT_SDK_DIR points at.
    agentSdk: join(modules, '@anthropic-ai/claude-agent-sdk'),
  };
}

function installedVersions() {
  try {
    return Object.fromEntries(Object.keys(PACKAGES).map((name) => [name, JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version]));
  } catch {
    return {};
  }
}

if (process.argv.includes('--print')) {
  console.log(JSON.stringify(binaries()));
  process.exit(0);
}

const have = installedVersions();
const paths = binaries();
if (Object.entries(PACKAGES).every(([name, version]) => have[name] === version) && existsSync(paths.claude) && existsSync(paths.codex)) {
  console.log(`harness CLIs already installed in ${dir}`);
  console.log(JSON.stringify(paths));
  process.exit(0);
}

mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, description: 'test-only: real harness CLIs', dependencies: PACKAGES }, null, 2)}\n`);
const started = Date.now();
// --ignore-scripts: the only install script is Claude Code's postinstall, which copies the native binary over its
// placeholder; the binary is used from the platform package directly, so nothing needs to run.
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock'], { cwd: dir, stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`install-harness-clis: npm install failed (exit ${result.status}); is the npm registry reachable? (try: npm view @openai/codex version)`);
  process.exit(1);
}
for (const [name, path] of Object.entries(paths)) {
  if (!existsSync(path)) {
    console.error(`install-harness-clis: ${name} binary not found at ${path} (no native package for ${platform()}-${arch()}?)`);
    process.exit(1);
  }
}
console.log(`harness CLIs installed in ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(JSON.stringify(paths));
