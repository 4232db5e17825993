import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AcpAgentEntry } from './acpAgentEntry';
import { ACP_AGENTS_DIR } from './acpAgentRegistry';
import { AcpError } from './acpError';

export type AcpInstallProgress =
  | { kind: 'started'; package: string; version: string; folder: string }
  | { kind: 'output'; line: string }
  | { kind: 'done'; command: string; elapsedMs: number };

/** npm's words for "the registry could not be reached". */
const OFFLINE = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network request .* failed)\b/i;

/**
 * Installs a built-in agent's pinned adapter into `<home>/acp-agents` with npm (the same way the test suite's
 * scripts/install-acp-agents.mjs does), reporting npm's output as progress. Offline is ACP_INSTALL_OFFLINE, saying so;
 * any other failure is ACP_INSTALL_FAILED with npm's last lines. `signal` stops npm.
 */
export async function installAcpAgent(
  home: string,
  entry: AcpAgentEntry,
  onProgress: (progress: AcpInstallProgress) => void,
  options: { signal?: AbortSignal; npm?: string } = {},
): Promise<{ command: string }> {
  const recipe = entry.install;
  if (!recipe) throw new AcpError('ACP_NOT_INSTALLABLE', `the ${entry.name} agent is not installed from the app; install "${entry.command}" yourself so it is on PATH`);
  const folder = join(home, ACP_AGENTS_DIR);
  mkdirSync(folder, { recursive: true });
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, `${JSON.stringify({ private: true, description: 'ACP adapters installed by Omniscient Shell' }, null, 2)}\n`);
  const started = Date.now();
  onProgress({ kind: 'started', package: recipe.package, version: recipe.version, folder });
  const npm = options.npm ?? (process.platform === 'win32' ? 'npm.cmd' : 'npm');
  const tail: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(npm, ['install', '--no-audit', '--no-fund', '--save-exact', `${recipe.package}@${recipe.version}`], {
      cwd: folder,
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: options.signal,
      env: { ...process.env, npm_config_loglevel: 'http' },
    });
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        const trimmed = line.trimEnd();
        if (trimmed === '') continue;
        tail.push(trimmed);
        if (tail.length > 20) tail.shift();
        onProgress({ kind: 'output', line: trimmed.slice(0, 2000) });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') reject(new AcpError('ACP_INSTALL_FAILED', `npm was not found (needed to install ${recipe.package}); install Node.js with npm`));
      else reject(new AcpError('ACP_INSTALL_FAILED', `installing ${recipe.package} stopped: ${error.message}`, { cause: error }));
    });
    child.on('close', (exitCode) => resolve(exitCode));
  });
  const output = tail.join('\n');
  if (code !== 0) {
    if (OFFLINE.test(output)) {
      throw new AcpError('ACP_INSTALL_OFFLINE', `the npm registry could not be reached, so ${recipe.package}@${recipe.version} was not installed; connect to the internet (or set npm's proxy) and install again`);
    }
    throw new AcpError('ACP_INSTALL_FAILED', `npm could not install ${recipe.package}@${recipe.version} (exit ${code}): ${output.slice(-1500)}`);
  }
  const command = join(folder, 'node_modules', '.bin', recipe.bin);
  if (!existsSync(command)) throw new AcpError('ACP_INSTALL_FAILED', `${recipe.package} installed, but its program ${recipe.bin} is missing at ${command}`);
  onProgress({ kind: 'done', command, elapsedMs: Date.now() - started });
  return { command };
}
