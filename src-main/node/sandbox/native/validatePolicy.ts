import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { BRIDGE_PORT } from './launchScripts';
import { NativeSandboxPolicyError } from './nativeSandboxErrors';
import type { LaunchPolicy } from './launchPolicy';
import { isInside } from './sandboxMounts';

/** Checks a policy before anything is created, so a mistake is one clear error naming the field and the fix. */
export function validatePolicy(policy: LaunchPolicy): void {
  if (!Array.isArray(policy.argv) || policy.argv.length === 0 || policy.argv.some((a) => typeof a !== 'string')) {
    throw new NativeSandboxPolicyError('argv', 'must be a non-empty list of strings', 'pass the command and its arguments, e.g. ["sh", "-c", "make"]');
  }
  if (policy.argv[0] === '') throw new NativeSandboxPolicyError('argv', 'the command is empty', 'name a program');
  for (const [field, path] of [['workspace', policy.workspace], ['cwd', policy.cwd]] as const) {
    if (typeof path !== 'string' || !isAbsolute(path)) throw new NativeSandboxPolicyError(field, `"${String(path)}" is not an absolute path`, 'pass an absolute path');
  }
  let real: string;
  try {
    real = realpathSync(policy.workspace);
  } catch {
    throw new NativeSandboxPolicyError('workspace', `${policy.workspace} does not exist`, 'open an existing folder as the workspace');
  }
  if (real !== policy.workspace) throw new NativeSandboxPolicyError('workspace', `${policy.workspace} is not a real path (it resolves to ${real})`, 'pass the resolved path');
  if (real === '/') throw new NativeSandboxPolicyError('workspace', 'the root directory cannot be a workspace', 'open a project folder');
  if (!statSync(real).isDirectory()) throw new NativeSandboxPolicyError('workspace', `${real} is not a directory`, 'open a folder');
  let cwd: string;
  try {
    cwd = realpathSync(policy.cwd);
  } catch {
    throw new NativeSandboxPolicyError('cwd', `${policy.cwd} does not exist`, 'start the run in an existing folder of the workspace');
  }
  if (!isInside(cwd, real)) throw new NativeSandboxPolicyError('cwd', `${policy.cwd} is outside the workspace ${real}`, 'start the run inside the workspace');
  if (policy.stageWrites && /[,:\\]/.test(real)) {
    throw new NativeSandboxPolicyError('workspace', `staged writes need a workspace path without ",", ":" or "\\" (${real})`, 'rename the folder, or run without staged writes');
  }
  const resources = policy.resources ?? {};
  for (const key of ['cpuSeconds', 'cpuMillicores', 'memBytes', 'pids', 'stagedWriteBytes'] as const) {
    const value = resources[key];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new NativeSandboxPolicyError(`resources.${key}`, `${String(value)} is not a positive whole number`, key === 'stagedWriteBytes' ? 'leave it out for the default (1 GiB)' : 'leave it out for no limit');
    }
  }
  if (resources.memBytes !== undefined && resources.memBytes < 4 * 1024 * 1024) {
    throw new NativeSandboxPolicyError('resources.memBytes', `${resources.memBytes} bytes is too little to start a process`, 'allow at least 4 MiB');
  }
  if (resources.stagedWriteBytes !== undefined && resources.stagedWriteBytes < 1024 * 1024) {
    throw new NativeSandboxPolicyError('resources.stagedWriteBytes', `${resources.stagedWriteBytes} bytes is too little to stage a run's writes`, 'allow at least 1 MiB, or leave it out for the default (1 GiB)');
  }
  for (const [name, value] of Object.entries(policy.env ?? {})) {
    if (typeof value !== 'string' || name === '' || name.includes('=') || name.includes('\0') || value.includes('\0')) {
      throw new NativeSandboxPolicyError(`env.${name}`, 'is not a valid environment variable', 'use a name without "=" and string values without NUL');
    }
  }
  for (const path of policy.readOnlyPaths ?? []) {
    if (!isAbsolute(path)) throw new NativeSandboxPolicyError('readOnlyPaths', `"${path}" is not an absolute path`, 'pass absolute paths');
  }
  for (const path of policy.writablePaths ?? []) {
    if (typeof path !== 'string' || !isAbsolute(path)) throw new NativeSandboxPolicyError('writablePaths', `"${String(path)}" is not an absolute path`, 'pass absolute paths');
  }
  for (const path of policy.hiddenPaths ?? []) {
    if (!isAbsolute(path)) throw new NativeSandboxPolicyError('hiddenPaths', `"${path}" is not an absolute path`, 'pass absolute paths');
  }
  const ports = new Set<number>();
  for (const service of policy.localServices ?? []) {
    const { port, socketPath } = service ?? {};
    if (!(Number.isSafeInteger(port) && port >= 1 && port <= 65535)) {
      throw new NativeSandboxPolicyError('localServices', `port ${String(port)} is not a TCP port`, 'pass the port the service listens on (1–65535)');
    }
    if (port === BRIDGE_PORT || ports.has(port)) {
      throw new NativeSandboxPolicyError('localServices', `port ${port} is already taken inside the sandbox${port === BRIDGE_PORT ? ' (the allowlist proxy)' : ''}`, 'give each service its own port, not 3128');
    }
    ports.add(port);
    if (typeof socketPath !== 'string' || !isAbsolute(socketPath)) {
      throw new NativeSandboxPolicyError('localServices', `"${String(socketPath)}" is not an absolute socket path`, 'pass the absolute path of the unix socket the service listens on');
    }
  }
}
