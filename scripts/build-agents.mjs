// Builds the bundled agents: agents/<name>/assembly/index.ts (AssemblyScript, with the SDK in agents/sdk) into
// assets/agents/<name>/agent.wasm, next to a copy of its manifest.toml. The compile step is the one `omni agent build`
// uses (agents/sdk/compileAgent.mjs). An agent is rebuilt only when its sources, the SDK or the compile step changed
// (a hash of them is kept beside the .wasm), so `npm run build` stays quick.
// `node scripts/build-agents.mjs [--force]`.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { agentToolchain, compileAgent } from '../agents/sdk/compileAgent.mjs';

const root = process.cwd();
const sourcesDir = join(root, 'agents');
const outDir = join(root, 'assets', 'agents');
const { asc, sdkDir, compilerModule } = agentToolchain(root);
const force = process.argv.includes('--force');

function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? filesUnder(full) : [full];
    });
}

function sourceHash(agentDir) {
  const hash = createHash('sha256');
  for (const file of [...filesUnder(agentDir), ...filesUnder(sdkDir), compilerModule, asc]) {
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

if (!existsSync(asc)) {
  console.error('build-agents: AssemblyScript is not installed (npm install)');
  process.exit(1);
}
const agents = existsSync(sourcesDir)
  ? readdirSync(sourcesDir).filter((name) => name !== 'sdk' && existsSync(join(sourcesDir, name, 'manifest.toml')) && existsSync(join(sourcesDir, name, 'assembly', 'index.ts')))
  : [];
let built = 0;
let failed = 0;
for (const name of agents) {
  const source = join(sourcesDir, name);
  const target = join(outDir, name);
  const stamp = join(target, '.source-hash');
  const hash = sourceHash(source);
  if (!force && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash && existsSync(join(target, 'agent.wasm'))) continue;
  mkdirSync(target, { recursive: true });
  const result = compileAgent({ root, entry: join(source, 'assembly', 'index.ts'), cwd: root });
  if (!result.ok) {
    failed++;
    rmSync(stamp, { force: true });
    console.error(`build-agents: ${name} failed:\n${result.diagnostics}`);
    continue;
  }
  writeFileSync(join(target, 'agent.wasm'), result.bytes);
  copyFileSync(join(source, 'manifest.toml'), join(target, 'manifest.toml'));
  writeFileSync(stamp, hash);
  built++;
}
console.log(`build-agents: ${agents.length} bundled agents, ${built} rebuilt${failed ? `, ${failed} FAILED` : ''}`);
process.exit(failed ? 1 : 0);
