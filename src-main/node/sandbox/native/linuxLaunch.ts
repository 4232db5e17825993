import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRunCgroup, type RunCgroup } from './cgroupLimits';
import { startEgressProxy, type EgressProxy } from './egressProxy';
import { BRIDGE_PORT, hostScript, outerScript } from './launchScripts';
import { DEFAULT_STAGED_WRITE_BYTES, type DiskQuotaHit, type LaunchPolicy, type NetworkRequestEvent, type PreparedLaunch } from './launchPolicy';
import { DiskQuotaError, NativeSandboxPolicyError, NativeSandboxUnavailableError, StagedCommitError } from './nativeSandboxErrors';
import type { SandboxProbe } from './probeSandbox';
import { defaultSecretPaths, hideArgs, homeArgs, isInside, systemMountArgs } from './sandboxMounts';
import { compileSeccompFilter, seccompArch } from './seccompFilter';
import { commitStaging, prepareStaging, readQuotaHit, removeRunDir, type StagingDirs } from './stagedWrites';

/**
 * One run's launch on Linux. A small shell script (bash when installed, else sh) first closes inherited
 * descriptors, joins the run's cgroups, sets RLIMIT_CPU and opens the seccomp program on fd 9 (launchScripts.ts):
 *
 *   plain run:   script → bwrap (user+pid+net+ipc+uts namespaces, read-only system, seccomp) → command
 *   staged, networked
 *   or bridged:  bwrap "outer" (user+net namespaces, root there, the host's filesystem and pids) → script (the same
 *                setup; mounts the overlay, starts the socat bridge) → bwrap "inner" (as above, sharing the outer's
 *                network namespace) → command
 *
 * Killing the spawned process kills everything: bwrap's child dies with its parent, and the end of a pid namespace
 * ends every process in it (a daemonised grandchild included). dispose() also empties the run's cgroups.
 */
export interface LinuxLaunchContext {
  probe: SandboxProbe;
  /** The /etc the command sees (etcSnapshot.ts). */
  etcSnapshot: string;
  /** Where per-run directories go (the app home's staging folder): seccomp program, proxy socket, staged writes. */
  stagingRoot: string;
  appHome?: string;
  onNetworkRequest?(event: NetworkRequestEvent): void;
  resolveHost?(host: string): Promise<string[]>;
  trustedAddresses?: ReadonlySet<string>;
}

const BASE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const PROXY_VARIABLES = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'];

function realOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export async function prepareLinuxLaunch(policy: LaunchPolicy, context: LinuxLaunchContext): Promise<PreparedLaunch> {
  const { probe } = context;
  if (!probe.usable || !probe.bwrapPath) {
    const problem = probe.problem ?? { reason: 'bwrap_missing' as const, message: 'bwrap not found', hint: 'install bubblewrap' };
    throw new NativeSandboxUnavailableError(problem.reason, problem.message, problem.hint);
  }
  if (policy.network && !probe.socatPath) {
    throw new NativeSandboxUnavailableError('socat_missing', 'the run has a network grant but socat (the bridge to the allowlist proxy) is not installed', 'install socat (apt-get install socat), or run without network');
  }
  const localServices = policy.localServices ?? [];
  if (localServices.length > 0 && !probe.socatPath) {
    throw new NativeSandboxUnavailableError('socat_missing', 'the run reaches a host service (localServices) but socat (the bridge to it) is not installed', 'install socat (apt-get install socat), or run without localServices');
  }
  if (policy.stageWrites && !probe.overlay) {
    throw new NativeSandboxUnavailableError('overlay_unavailable', 'staged writes need overlayfs in a user namespace, which this kernel refuses', 'use Linux 5.11 or newer, or run without staged writes');
  }
  const arch = seccompArch();
  if (!arch) throw new NativeSandboxUnavailableError('unsupported_platform', `no seccomp filter for ${process.arch}`, 'run on x86_64 or aarch64');
  const bwrap = probe.bwrapPath;
  const secrets = [...defaultSecretPaths(context.appHome), ...(policy.hiddenPaths ?? [])];
  // Resolved first, so a symlink cannot smuggle a secret place in under another name.
  const readOnly = (policy.readOnlyPaths ?? []).map((path) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new NativeSandboxPolicyError('readOnlyPaths', `${path} does not exist`, 'share an existing folder');
    }
    const covering = secrets.find((secret) => isInside(secret, real) || isInside(realOrSelf(secret), real));
    if (covering) throw new NativeSandboxPolicyError('readOnlyPaths', `${path} would show ${covering}, a place secrets live`, 'share a folder that holds no secrets');
    return { real, path };
  });
  // Writable folders: resolved like the read-only ones; besides not showing a secret place, one may lie in no secret
  // place but the app home (an agent's config folder under <home>/acp/ is the app's; ~/.ssh/x is the user's).
  const appHomes = [context.appHome, process.env.OMNI_HOME].filter((home): home is string => !!home).flatMap((home) => [home, realOrSelf(home)]);
  const writable = (policy.writablePaths ?? []).map((path) => {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      throw new NativeSandboxPolicyError('writablePaths', `${path} does not exist`, 'create the folder first');
    }
    const covering = secrets.find((secret) => isInside(secret, real) || isInside(realOrSelf(secret), real));
    if (covering) throw new NativeSandboxPolicyError('writablePaths', `${path} would show ${covering}, a place secrets live`, 'share a folder that holds no secrets');
    const within = secrets.find((secret) => !appHomes.includes(secret) && (isInside(real, secret) || isInside(real, realOrSelf(secret))));
    if (within) throw new NativeSandboxPolicyError('writablePaths', `${path} is inside ${within}, a place secrets live`, 'share a folder outside it');
    if (isInside(real, policy.workspace)) throw new NativeSandboxPolicyError('writablePaths', `${path} is inside the workspace, which is writable already`, 'leave it out');
    return { real, path };
  });
  const holding = secrets.find((secret) => isInside(policy.workspace, secret));
  if (holding) throw new NativeSandboxPolicyError('workspace', `${policy.workspace} is inside ${holding}, a place secrets live`, 'open a folder outside it');

  const cleanups: (() => void)[] = [];
  const cleanUp = () => {
    for (const step of cleanups.splice(0).reverse()) {
      try {
        step();
      } catch {
        // keep cleaning
      }
    }
  };
  try {
    const runDir = mkdtempSync(join(context.stagingRoot, `omni-native-${process.pid}-`));
    cleanups.push(() => removeRunDir(runDir));
    const filterPath = join(runDir, 'seccomp.bpf');
    writeFileSync(filterPath, compileSeccompFilter(arch));

    const resources = policy.resources ?? {};
    const wantsCgroup = resources.memBytes !== undefined || resources.pids !== undefined || resources.cpuMillicores !== undefined;
    let cgroup: RunCgroup | null = null;
    if (wantsCgroup) {
      cgroup = createRunCgroup(probe.cgroups, `omni-run-${process.pid}-${runDir.slice(-6)}`, resources);
      const made = cgroup;
      cleanups.push(() => made.remove());
    }

    let proxy: EgressProxy | null = null;
    const socketPath = join(runDir, 'proxy.sock');
    if (policy.network) {
      const grant = policy.network;
      proxy = await startEgressProxy({
        listen: { path: socketPath },
        allowDomains: grant.allowDomains,
        label: policy.label,
        stillGranted: grant.stillGranted ? () => grant.stillGranted!() : undefined,
        onRequest: (event) => {
          grant.onRequest?.(event);
          context.onNetworkRequest?.(event);
        },
        resolveHost: context.resolveHost,
        trustedAddresses: context.trustedAddresses,
      });
      const started = proxy;
      cleanups.push(() => void started.close());
    }

    const staging: StagingDirs | null = policy.stageWrites ? prepareStaging(runDir, policy.workspace, resources.stagedWriteBytes ?? DEFAULT_STAGED_WRITE_BYTES) : null;
    // Each bridge: socat in the outer layer, TCP 127.0.0.1:<port> → the host's unix socket.
    const bridges = [...(proxy ? [{ port: BRIDGE_PORT, socketPath }] : []), ...localServices];
    const outer = staging !== null || bridges.length > 0;
    const home = homeArgs(policy.workspace);
    const meta = join(policy.workspace, '.meta');
    ensureMetaFolder(meta);

    // The command's user inside: the host user's uid, or 1000 for root, so it is never "root" even in its namespace.
    const identity = ['--uid', String(process.getuid?.() || 1000), '--gid', String(process.getgid?.() || 1000)];
    const inner = [
      '--unshare-user', ...identity, '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-cgroup-try',
      ...(outer ? [] : ['--unshare-net']),
      '--die-with-parent', ...(policy.tty ? [] : ['--new-session']),
      '--cap-drop', 'ALL', '--disable-userns',
      ...systemMountArgs(context.etcSnapshot),
      '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
      ...home.args,
      '--bind', policy.workspace, policy.workspace,
      // .meta/context.md and session.json are the host's: readable, never written by a run.
      '--ro-bind-try', meta, meta,
      ...readOnly.flatMap(({ real, path }) => ['--ro-bind', real, path]),
      ...writable.flatMap(({ real, path }) => ['--bind', real, path]),
      ...hideArgs(secrets, [policy.workspace]),
      '--chdir', policy.cwd,
      '--seccomp', '9',
      '--', ...policy.argv,
    ];
    const cpuSeconds = resources.cpuSeconds;
    const setupArgs = [String(cgroup?.procsFiles.length ?? 0), ...(cgroup?.procsFiles ?? []), cpuSeconds ? String(cpuSeconds) : '-', filterPath];
    const shell = probe.bashPath ?? '/bin/sh';
    const argv = outer
      ? [
          bwrap,
          // The outer layer is root in its own user namespace, with capabilities over that namespace only: it mounts
          // the overlay and starts the bridge, and the inner bwrap (which, as root there, sets up its own namespaces)
          // gives the command none of them. It sees the host's filesystem and pids as the host user does (see
          // launchScripts.ts for why no pid namespace); only our script, mount and socat run in it.
          '--unshare-user', '--uid', '0', '--gid', '0', '--unshare-net', '--die-with-parent',
          '--dev-bind', '/', '/', '--cap-add', 'ALL',
          '--', shell, '-c', outerScript(probe.bashPath !== null), 'omni-sandbox-outer', ...setupArgs,
          policy.workspace, ...(staging
            ? [staging.mount, String(staging.limitBytes), String(staging.inodes), staging.rootMode, staging.upper, staging.manifest, staging.full]
            : ['-', '-', '-', '-', '-', '-', '-']),
          probe.setprivPath ?? '-',
          String(bridges.length), ...bridges.flatMap((bridge) => [String(bridge.port), bridge.socketPath]),
          bwrap, ...inner,
        ]
      : [shell, '-c', hostScript(probe.bashPath !== null), 'omni-sandbox', ...setupArgs, bwrap, ...inner];

    const env: Record<string, string> = { PATH: BASE_PATH, HOME: home.home, TMPDIR: '/tmp', LANG: 'C.UTF-8', ...policy.env };
    for (const name of [...PROXY_VARIABLES, 'NO_PROXY', 'no_proxy']) delete env[name];
    if (proxy) {
      for (const name of PROXY_VARIABLES) env[name] = `http://127.0.0.1:${BRIDGE_PORT}`;
      // The host services are reached directly on the sandbox's loopback, never through the allowlist proxy
      // (which refuses loopback); nothing else listens there.
      const direct = localServices.length > 0 ? '127.0.0.1,localhost' : '';
      env.NO_PROXY = direct;
      env.no_proxy = direct;
    }

    const enforced = [
      'bwrap', 'userns', 'pidns', 'netns', 'seccomp', 'fs:read-only-system', 'fs:workspace-only-writable', 'fs:secrets-hidden',
      ...(writable.length > 0 ? ['fs:writable-paths'] : []),
      proxy ? 'network:allowlist-proxy' : 'network:none',
      ...localServices.map((service) => `local-service:${service.port}`),
      ...(cgroup?.enforced ?? []),
      ...(cpuSeconds ? ['rlimit:cpu'] : []),
      ...(staging ? ['staged-writes', `staged-writes-limit:${staging.limitBytes}`] : []),
    ];

    let outcome: 'pending' | 'committed' | 'dropped' = 'pending';
    let quotaHit: DiskQuotaHit | null | undefined;
    const diskQuotaHit = staging ? () => (quotaHit ??= readQuotaHit(staging)) : undefined;
    return {
      argv,
      env,
      cwd: '/',
      enforced,
      onSuccess: staging
        ? async () => {
            if (outcome === 'dropped') throw new StagedCommitError('they were already dropped (onFailure ran first)');
            if (outcome === 'committed') return;
            const hit = diskQuotaHit!();
            if (hit) throw new DiskQuotaError(hit.limitBytes, hit.message);
            commitStaging(staging, policy.workspace);
            outcome = 'committed';
          }
        : undefined,
      onFailure: staging
        ? async () => {
            if (outcome !== 'pending') return;
            outcome = 'dropped';
            removeRunDir(staging.upper);
          }
        : undefined,
      diskQuotaHit,
      limitHit: () => cgroup?.limitHit() ?? null,
      dispose: cleanUp,
    };
  } catch (error) {
    cleanUp();
    throw error;
  }
}

/**
 * The workspace's .meta must exist before a run starts: --ro-bind-try skips a missing one, and the run could then
 * create it itself (plant a context.md the host would take for the user's, or make .meta a link the host would
 * follow). Made empty here, it is bound read-only like any other.
 */
function ensureMetaFolder(meta: string): void {
  try {
    mkdirSync(meta);
  } catch {
    // There already (EEXIST), or the workspace cannot be written (then the run, as the same user, cannot create it either).
  }
}
