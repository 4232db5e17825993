import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { LaunchPolicy, LocalService, NetworkRequestEvent, ResourceLimits } from '../sandbox/native/launchPolicy';
import { defaultSecretPaths, isInside } from '../sandbox/native/sandboxMounts';

/**
 * The native-sandbox policy of an ACP agent process (docs/acp.md, Sandbox):
 *
 * - writable: the session's workspace (directly, not staged: the agent is long-lived and the user reviews its edits
 *   as they land) and the agent's own config folder `<home>/acp/<agent>/` (its HOME);
 * - read-only: the system, the adapter's install folder, node's installation when it is not under the system folders;
 * - hidden: the rest of the user's home (an empty tmpfs), the rest of the app home, the usual secret places;
 * - network: only the provider's API hosts, through the sandbox's egress proxy (each request ledgered), and the
 *   credential proxy as a host service on the sandbox's 127.0.0.1 (the agent's base URL points there);
 * - a process cap and a memory cap for the whole tree.
 */
export interface AcpSandboxPolicyInput {
  argv: readonly string[];
  workspace: string;
  configHome: string;
  /** The adapter's install folder (acpAgentCommand.ts). */
  installDir: string;
  /** The node binary the adapter runs on (process.execPath by default). */
  nodePath: string;
  env: Readonly<Record<string, string>>;
  /** The provider's API hosts ("api.anthropic.com"); none: no network besides the credential proxy. */
  apiHosts: readonly string[];
  /** The credential proxy's bridge (CredentialServices.proxyBridge()), or null without a credential. */
  credentialBridge: LocalService | null;
  label: string;
  onRequest?(event: NetworkRequestEvent): void;
  /** Asked at every request through the egress proxy: false refuses it (a session ended, a grant revoked). */
  stillGranted?(): boolean;
  resources?: ResourceLimits;
}

/** What an agent tree may use unless the caller says otherwise: Claude Code with its tools fits well within it. */
export const ACP_DEFAULT_RESOURCES: ResourceLimits = { pids: 1024, memBytes: 4 * 1024 * 1024 * 1024 };

const SYSTEM_DIRS = ['/usr/', '/bin/', '/sbin/', '/lib/', '/lib64/', '/opt/'];

/**
 * Node's installation (the folder above its bin/), when the sandbox would not show it anyway; else null. When that
 * folder holds a secret place (node in ~/.local/bin: ~/.local holds share/keyrings), only node's own folder.
 */
export function nodeInstallDir(nodePath: string): string | null {
  let real: string;
  try {
    real = realpathSync(nodePath);
  } catch {
    return null;
  }
  if (SYSTEM_DIRS.some((dir) => real.startsWith(dir))) return null;
  const binDir = dirname(real);
  const above = dirname(binDir);
  if (above === binDir || defaultSecretPaths().some((secret) => isInside(secret, above))) return binDir;
  return above;
}

export function acpSandboxPolicy(input: AcpSandboxPolicyInput): LaunchPolicy {
  const nodeDir = nodeInstallDir(input.nodePath);
  const readOnlyPaths = [...new Set([input.installDir, ...(nodeDir ? [nodeDir] : [])])].filter((path) => !SYSTEM_DIRS.some((dir) => `${path}/`.startsWith(dir)));
  return {
    argv: input.argv,
    cwd: input.workspace,
    workspace: input.workspace,
    env: input.env,
    network:
      input.apiHosts.length > 0
        ? { allowDomains: [...input.apiHosts], stillGranted: input.stillGranted, onRequest: input.onRequest }
        : null,
    localServices: input.credentialBridge ? [input.credentialBridge] : [],
    resources: input.resources ?? ACP_DEFAULT_RESOURCES,
    readOnlyPaths,
    writablePaths: [input.configHome],
    stageWrites: false,
    label: input.label,
  };
}
