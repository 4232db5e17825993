// Installs the pinned ACP agents (the programs that speak the Agent Client Protocol: Zed's adapters for Claude Code
// and Codex, and Gemini CLI, which speaks it itself) into a test-only, gitignored folder (.cache/acp-agents), on
// demand, for the ACP integration tests. Like the harness CLIs (scripts/install-harness-clis.mjs) they are not the
// app's dependencies: users install them in-app (acp.install) into <home>/acp-agents.
//
//   node scripts/install-acp-agents.mjs           install the pinned versions unless already there
//   node scripts/install-acp-agents.mjs --print   print the adapters' bin paths (JSON) without installing
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, '.cache', 'acp-agents');
// Pinned: the same versions as the built-in registry entries (src-main/node/acp/acpBuiltinAgents.ts).
const PACKAGES = { '@zed-industries/claude-agent-acp': '0.23.1', '@zed-industries/codex-acp': '0.16.0', '@google/gemini-cli': '0.61.0' };
const BINS = { claude: 'claude-agent-acp', codex: 'codex-acp', gemini: 'gemini' };

function binaries() {
  return Object.fromEntries(Object.entries(BINS).map(([id, bin]) => [id, join(dir, 'node_modules', '.bin', bin)]));
}

function installedVersions() {
  const versions = {};
  for (const name of Object.keys(PACKAGES)) {
    try {
      versions[name] = JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      // not installed
    }
  }
  return versions;
}

if (process.argv.includes('--print')) {
  console.log(JSON.stringify(binaries()));
  process.exit(0);
}

const have = installedVersions();
const paths = binaries();
if (Object.entries(PACKAGES).every(([name, version]) => have[name] === version) && Object.values(paths).every((path) => existsSync(path))) {
  console.log(`ACP adapters already installed in ${dir}`);
  console.log(JSON.stringify(paths));
  process.exit(0);
}

mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, description: 'test-only: ACP adapters', dependencies: PACKAGES }, null, 2)}\n`);
const started = Date.now();
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const result = spawnSync(npm, ['install', '--no-audit', '--no-fund', '--no-package-lock'], { cwd: dir, stdio: 'inherit' });
if (result.status !== 0) {
  console.error(`install-acp-agents: npm install failed (exit ${result.status}); is the npm registry reachable? (try: npm view @zed-industries/claude-agent-acp version)`);
  process.exit(1);
}
for (const [name, path] of Object.entries(paths)) {
  if (!existsSync(path)) {
    console.error(`install-acp-agents: the ${name} adapter's program was not found at ${path}`);
    process.exit(1);
  }
}
console.log(`ACP adapters installed in ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(JSON.stringify(paths));
