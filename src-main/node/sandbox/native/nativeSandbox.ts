import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { stagingPath } from '../../home';
import { buildEtcSnapshot } from './etcSnapshot';
import type { LaunchPolicy, NetworkRequestEvent, PreparedLaunch } from './launchPolicy';
import { prepareLinuxLaunch } from './linuxLaunch';
import { prepareMacosLaunch } from './macosLaunch';
import { NativeSandboxUnavailableError } from './nativeSandboxErrors';
import { probeSandbox, type SandboxProbe } from './probeSandbox';
import { sweepStaleRunDirs } from './stagedWrites';
import { validatePolicy } from './validatePolicy';

/**
 * The native sandbox: wraps a command so it runs isolated from the machine (Linux: bubblewrap + seccomp + cgroups +
 * an allowlist proxy + staged writes; macOS: sandbox-exec). It fails closed: when this machine cannot isolate a
 * command, prepareLaunch throws NativeSandboxUnavailableError and nothing runs.
 */
export interface NativeSandboxOptions {
  /** The app home (hidden from every run, like ~/.ssh). */
  appHome?: string;
  /**
   * Where per-run directories (seccomp program, staged writes, proxy socket) go: by default the app home's staging
   * folder (home.ts), else the system temp dir. Best on the workspace's filesystem: a commit is then a rename per file.
   */
  stagingRoot?: string;
  /** Every proxied request of every run, allowed or not (for the ledger). */
  onNetworkRequest?(event: NetworkRequestEvent): void;
  /** Name → addresses for the proxy; the system resolver by default (tests stand in their own "internet"). */
  resolveHost?(host: string): Promise<string[]>;
  /** bwrap's path when it is not on PATH. */
  bwrapPath?: string;
  /** Exact addresses the proxy may reach although they are not public (tests; a local model server the user chose). */
  trustedAddresses?: ReadonlySet<string>;
}

export interface NativeSandbox {
  prepareLaunch(policy: LaunchPolicy): Promise<PreparedLaunch>;
  /** What this machine enforces (probed once, then remembered). */
  probeSandbox(): SandboxProbe;
  /** Removes the sandbox's /etc snapshot (runs already prepared keep working until they end). */
  dispose(): void;
}

export function createNativeSandbox(options: NativeSandboxOptions = {}): NativeSandbox {
  let probe: SandboxProbe | null = null;
  const probed = () => (probe ??= probeSandbox({ bwrapPath: options.bwrapPath }));
  const homeStaging = options.appHome !== undefined && options.stagingRoot === undefined;
  const stagingRoot = options.stagingRoot ?? (options.appHome !== undefined ? stagingPath(options.appHome) : tmpdir());
  if (homeStaging) mkdirSync(stagingRoot, { recursive: true, mode: 0o700 });
  // The home's staging folder has one user, the host holding the home's lock, which has made no run directory yet:
  // whatever another process id left there is a crashed host's, even if that id now belongs to someone else.
  sweepStaleRunDirs(stagingRoot, { exclusive: homeStaging });
  let etcSnapshot: string | null = null;
  const removeSnapshot = () => {
    if (etcSnapshot) rmSync(etcSnapshot, { recursive: true, force: true });
    etcSnapshot = null;
  };
  process.once('exit', removeSnapshot);
  return {
    probeSandbox: probed,
    dispose() {
      removeSnapshot();
      process.removeListener('exit', removeSnapshot);
    },
    async prepareLaunch(policy: LaunchPolicy): Promise<PreparedLaunch> {
      validatePolicy(policy);
      if (process.platform === 'linux') {
        etcSnapshot ??= buildEtcSnapshot(stagingRoot);
        return prepareLinuxLaunch(policy, { ...options, stagingRoot, probe: probed(), etcSnapshot });
      }
      if (process.platform === 'darwin') return prepareMacosLaunch(policy, { ...options, stagingRoot });
      throw new NativeSandboxUnavailableError(
        'unsupported_platform',
        `no native sandbox for ${process.platform} yet`,
        'on Windows the Job Object adapter is planned (docs/native-sandbox.md); run agents in the WASM sandbox meanwhile',
      );
    },
  };
}

export { NativeSandboxPolicyError, NativeSandboxUnavailableError, StagedCommitError } from './nativeSandboxErrors';
export type { LaunchPolicy, LocalService, NetworkGrant, NetworkRequestEvent, PreparedLaunch, ResourceLimits } from './launchPolicy';
export type { ProbeItem, SandboxProbe } from './probeSandbox';
