import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { compileAgent, SDK_PACKAGE } from '../../agents/sdk/compileAgent.mjs';
import { errorsOf, formatIssue, readManifest, type AgentManifest } from '../node/agents/manifest';
import { readModuleShape } from '../node/sandbox/wasm/moduleShape';
import { prepareModule } from '../node/sandbox/wasm/prepareModule';
import { ModuleRefusedError } from '../node/sandbox/wasm/sandboxErrors';
import { agentProjectRoot } from './agentProjectRoot';

export const agentBuildUsage = `  agent build DIR
        Compile DIR/assembly/index.ts (AssemblyScript; import the SDK as '${SDK_PACKAGE}') into the .wasm DIR/manifest.toml
        names as entry, after validating the manifest; the module's imports are checked against the manifest's
        capabilities as the sandbox checks them. Prints the file, its size and SHA-256. Exit 1 on a manifest error,
        a compile error (the compiler's diagnostics are printed) or an import the manifest does not declare.`;

/** Where an agent's AssemblyScript entry is, as in the bundled agents (agents/<name>/assembly/index.ts). */
export const AGENT_SOURCE_ENTRY = join('assembly', 'index.ts');

export interface BuiltAgent {
  manifest: AgentManifest;
  file: string;
  bytes: number;
  sha256: string;
  imports: string[];
}

/** Why a build stopped, with everything the author needs to fix it. */
export class AgentBuildError extends Error {
  constructor(
    message: string,
    readonly details: string[] = [],
  ) {
    super(message);
    this.name = 'AgentBuildError';
  }
}

/**
 * Builds the agent in `folder`: manifest first (an entry that does not exist yet is fine, the build writes it), then
 * the compile, then the same module checks the sandbox makes before running it; only a module that passes them all
 * is written, atomically, where `entry` says.
 */
export function buildAgent(folder: string): BuiltAgent {
  const report = readManifest(folder, { entryToBeBuilt: true });
  if (!report.manifest) throw new AgentBuildError(`${report.file} is not valid, so nothing was built`, errorsOf(report).map(formatIssue));
  const manifest = report.manifest;
  if (manifest.sandbox !== 'wasm') throw new AgentBuildError(`"${manifest.name}" has sandbox = "${manifest.sandbox}"; only wasm agents are built from AssemblyScript`);
  const source = join(folder, AGENT_SOURCE_ENTRY);
  if (!existsSync(source)) {
    throw new AgentBuildError(`no ${AGENT_SOURCE_ENTRY} in ${folder}`, [`an agent's AssemblyScript starts at ${AGENT_SOURCE_ENTRY} (\`omni agent new DIR --name N\` makes one to start from)`]);
  }
  const compiled = compileAgent({ root: agentProjectRoot(), entry: AGENT_SOURCE_ENTRY, cwd: folder });
  if (!compiled.ok) throw new AgentBuildError(`${join(folder, AGENT_SOURCE_ENTRY)} did not compile`, [compiled.diagnostics]);
  try {
    prepareModule(compiled.bytes, manifest.capabilities, manifest.resources.memBytes);
  } catch (error) {
    if (!(error instanceof ModuleRefusedError)) throw error;
    throw new AgentBuildError(
      `the compiled module would be refused by the sandbox, so it was not written`,
      error.problems.map((problem) =>
        problem.subject === 'env.abort'
          ? `${problem.code}: ${problem.message}. AssemblyScript imports env.abort for assertions and errors unless the SDK's onAbort replaces it: import from '${SDK_PACKAGE}' (and re-export its omni_alloc)`
          : `${problem.code}: ${problem.message}`,
      ),
    );
  }
  writeEntry(folder, manifest.entryPath, compiled.bytes);
  const imports = readModuleShape(compiled.bytes).imports.map((imp) => `${imp.module}.${imp.name}`);
  return { manifest, file: manifest.entryPath, bytes: compiled.bytes.length, sha256: createHash('sha256').update(compiled.bytes).digest('hex'), imports };
}

/** Temp file beside the target, then rename: a failed build never leaves half a module; the folder must stay inside. */
function writeEntry(folder: string, target: string, bytes: Buffer): void {
  mkdirSync(dirname(target), { recursive: true });
  const parent = realpathSync(dirname(target));
  const inside = relative(realpathSync(folder), parent);
  if (inside === '..' || inside.startsWith(`..${sep}`)) throw new AgentBuildError(`the entry's folder ${parent} is outside the agent folder; nothing was written`);
  if (existsSync(target) && !statSync(target).isFile()) throw new AgentBuildError(`${target} is not a file; nothing was written`);
  const temp = join(parent, `.${randomBytes(6).toString('hex')}.wasm.tmp`);
  try {
    writeFileSync(temp, bytes, { flag: 'wx', mode: 0o644 });
    renameSync(temp, target);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** `omni agent build DIR`. */
export function agentBuildCommand(folder: string): number {
  let built: BuiltAgent;
  try {
    built = buildAgent(folder);
  } catch (error) {
    if (!(error instanceof AgentBuildError)) throw error;
    process.stderr.write(`omni: build failed: ${error.message}\n${error.details.map((line) => `  ${line.replace(/\n/g, '\n  ')}\n`).join('')}`);
    return 1;
  }
  const { manifest } = built;
  console.log(`built "${manifest.name}" ${manifest.version}: ${built.file}`);
  console.log(`  ${built.bytes} bytes (${(built.bytes / 1024).toFixed(1)} KiB), sha256 ${built.sha256}`);
  console.log(`  imports ${built.imports.length ? built.imports.join(', ') : 'nothing'}: all allowed by capabilities [${manifest.capabilities.join(', ')}]`);
  return 0;
}
