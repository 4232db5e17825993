import { spawnSync } from 'node:child_process';
import { accessSync, closeSync, constants, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { detectCgroups, sweepStaleCgroups, type CgroupSupport, type Controller } from './cgroupLimits';
import { compileSeccompFilter, seccompArch } from './seccompFilter';

/**
 * What this machine lets the native sandbox enforce, found by trying it (a real bwrap run with the real seccomp
 * filter, a real overlay mount in a user namespace, a real cgroup created and removed), with one sentence per item
 * for the UI, so a user can see which limits hold here and which do not.
 */
export type ProbeItemId = 'bwrap' | 'seccomp' | 'network' | 'staging' | 'memory' | 'pids' | 'cpu' | 'cpu_time' | 'landlock';

export interface ProbeItem {
  id: ProbeItemId;
  enforced: boolean;
  /** "bubblewrap 0.8.0", "cgroup v1", "RLIMIT_CPU", or null when not enforced. */
  via: string | null;
  sentence: string;
}

export interface SandboxProbe {
  platform: NodeJS.Platform;
  /** Whether commands can be sandboxed at all (bwrap and user namespaces work); when false, prepareLaunch refuses. */
  usable: boolean;
  bwrapPath: string | null;
  socatPath: string | null;
  /** util-linux's setpriv, when present: the network bridge dies with its parent (--pdeathsig). */
  setprivPath: string | null;
  /** bash, when present, runs the host wrapper so it can close leaked descriptors (launchScripts.ts). */
  bashPath: string | null;
  /** Why the sandbox is unusable, with what to do about it. */
  problem: { reason: 'bwrap_missing' | 'userns_unavailable' | 'unsupported_platform'; message: string; hint: string } | null;
  cgroups: CgroupSupport;
  overlay: boolean;
  items: ProbeItem[];
}

export function findExecutable(name: string): string | null {
  const dirs = (process.env.PATH ?? '').split(delimiter).concat(['/usr/bin', '/bin', '/usr/local/bin']);
  for (const dir of dirs) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // next
    }
  }
  return null;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0] ?? '';
}

/** A real sandboxed /bin/true with the filter on fd 9: proves user namespaces, bwrap and seccomp at once. */
function tryBwrap(bwrap: string, dir: string): { ok: boolean; error: string } {
  const arch = seccompArch();
  const filterPath = join(dir, 'probe.bpf');
  writeFileSync(filterPath, compileSeccompFilter(arch ?? 'x64'));
  const fd = openSync(filterPath, 'r');
  try {
    const stdio: (number | 'ignore' | 'pipe')[] = ['ignore', 'ignore', 'pipe', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', 'ignore', fd];
    const result = spawnSync(
      bwrap,
      ['--unshare-user', '--unshare-pid', '--unshare-net', '--die-with-parent', '--cap-drop', 'ALL', '--disable-userns', '--ro-bind', '/', '/', '--proc', '/proc', '--seccomp', '9', '--', '/bin/true'],
      { stdio, encoding: 'utf8', timeout: 10_000 },
    );
    return { ok: result.status === 0, error: firstLine(result.stderr ?? '') || String(result.error ?? `exit ${result.status}`) };
  } finally {
    closeSync(fd);
  }
}

/** Overlayfs mounted inside a user namespace, as a staged run does it. */
function tryOverlay(bwrap: string, dir: string): boolean {
  for (const sub of ['lower', 'upper', 'work']) mkdirSync(join(dir, sub));
  const result = spawnSync(
    bwrap,
    ['--unshare-user', '--uid', '0', '--gid', '0', '--unshare-net', '--die-with-parent', '--dev-bind', '/', '/', '--cap-add', 'ALL', '--', '/bin/sh', '-c',
      'mount -t overlay overlay -o "lowerdir=$1/lower,upperdir=$1/upper,workdir=$1/work,userxattr" "$1/lower" && touch "$1/lower/probe"', 'sh', dir],
    { stdio: 'ignore', timeout: 10_000 },
  );
  return result.status === 0 && existsSync(join(dir, 'upper', 'probe')) && !existsSync(join(dir, 'lower', 'probe'));
}

/** Creates and removes a cgroup where each controller would be used. */
function tryCgroups(support: CgroupSupport): void {
  for (const controller of Object.keys(support.places) as Controller[]) {
    const place = support.places[controller]!;
    const dir = join(place.parent, `omni-probe-${process.pid}`);
    try {
      mkdirSync(dir);
      rmdirSync(dir);
    } catch (error) {
      delete support.places[controller];
      support.missing[controller] = `cannot create a cgroup under ${place.parent} (${(error as NodeJS.ErrnoException).code})`;
    }
  }
}

function landlockPresent(): boolean {
  try {
    return readFileSync('/sys/kernel/security/lsm', 'utf8').split(',').includes('landlock');
  } catch {
    return false;
  }
}

const CONTROLLER_WORDS: Record<Controller, string> = { memory: 'memory limit', pids: 'process limit', cpu: 'CPU quota' };

export interface ProbeOptions {
  /** bwrap's path when it is not on PATH; a path that does not exist probes as "bwrap missing". */
  bwrapPath?: string;
}

export function probeSandbox(options: ProbeOptions = {}): SandboxProbe {
  if (process.platform !== 'linux') {
    return {
      platform: process.platform,
      usable: false,
      bwrapPath: null,
      socatPath: null,
      bashPath: null,
      setprivPath: null,
      problem: { reason: 'unsupported_platform', message: `the bubblewrap sandbox runs on Linux, not ${process.platform}`, hint: 'see docs/native-sandbox.md for the macOS and Windows adapters' },
      cgroups: { places: {}, missing: {} },
      overlay: false,
      items: [],
    };
  }
  const bwrapPath = options.bwrapPath !== undefined ? (existsSync(options.bwrapPath) ? options.bwrapPath : null) : findExecutable('bwrap');
  const socatPath = findExecutable('socat');
  const bashPath = findExecutable('bash');
  const setprivPath = findExecutable('setpriv');
  const cgroups = detectCgroups();
  tryCgroups(cgroups);
  sweepStaleCgroups(cgroups);
  const items: ProbeItem[] = [];
  let problem: SandboxProbe['problem'] = null;
  let overlay = false;
  const dir = mkdtempSync(join(tmpdir(), 'omni-native-probe-'));
  try {
    if (!bwrapPath) {
      problem = { reason: 'bwrap_missing', message: 'bwrap not found', hint: 'install bubblewrap (apt-get install bubblewrap, dnf install bubblewrap, pacman -S bubblewrap)' };
    } else {
      const run = tryBwrap(bwrapPath, dir);
      if (!run.ok) {
        problem = {
          reason: 'userns_unavailable',
          message: `bwrap could not create a sandbox (${run.error})`,
          hint: 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu an AppArmor profile for bwrap)',
        };
      } else overlay = tryOverlay(bwrapPath, dir);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const version = bwrapPath ? firstLine(spawnSync(bwrapPath, ['--version'], { encoding: 'utf8' }).stdout ?? '') : '';
  const usable = problem === null;
  items.push({
    id: 'bwrap',
    enforced: usable,
    via: usable ? version : null,
    sentence: usable
      ? `filesystem and process isolation: enforced via ${version} (own user, pid and network namespaces; read-only system; the workspace the only writable place; secrets directories hidden)`
      : `filesystem and process isolation: not available (${problem!.message}) — ${problem!.hint}; sandboxed runs are refused`,
  });
  items.push({
    id: 'seccomp',
    enforced: usable && seccompArch() !== null,
    via: usable ? `seccomp (${process.arch})` : null,
    sentence: usable
      ? 'system-call filter: enforced via seccomp (unix sockets, ptrace, mount, new namespaces, kernel keyrings, bpf, io_uring refused)'
      : 'system-call filter: not available (no sandbox)',
  });
  items.push({
    id: 'network',
    enforced: usable && socatPath !== null,
    via: usable && socatPath ? 'allowlist proxy + socat bridge' : null,
    sentence: !usable
      ? 'network: no sandbox'
      : socatPath
        ? "network: none unless granted; a granted run reaches only its allowlisted domains through the app's proxy (host loopback and private networks unreachable)"
        : 'network: none; runs with a network grant are refused (socat not found — apt-get install socat)',
  });
  items.push({
    id: 'staging',
    enforced: overlay,
    via: overlay ? 'overlayfs in a user namespace' : null,
    sentence: overlay
      ? 'staged writes: enforced via overlayfs in a user namespace (a failed, killed or timed-out run leaves no writes in the workspace)'
      : 'staged writes: not available (overlayfs cannot be mounted in a user namespace on this kernel) — runs that ask for them are refused',
  });
  for (const controller of ['memory', 'pids', 'cpu'] as const) {
    const place = cgroups.places[controller];
    const words = CONTROLLER_WORDS[controller];
    items.push({
      id: controller,
      enforced: Boolean(place) && usable,
      via: place ? `cgroup v${place.version}` : null,
      sentence: place
        ? `${words}: enforced via cgroup v${place.version}`
        : `${words}: not available on this machine (${cgroups.missing[controller]})${controller === 'cpu' ? ' — RLIMIT_CPU backstop only' : ''}`,
    });
  }
  items.push({ id: 'cpu_time', enforced: usable, via: 'RLIMIT_CPU', sentence: 'CPU time per process: enforced via RLIMIT_CPU (a backstop; the run timeout is the real bound)' });
  items.push({
    id: 'landlock',
    enforced: false,
    via: null,
    sentence: landlockPresent()
      ? 'Landlock: in the kernel, not used (the mount namespace already limits the filesystem to the workspace)'
      : 'Landlock: not used (not needed: the mount namespace limits the filesystem to the workspace)',
  });
  return { platform: 'linux', usable, bwrapPath, socatPath, bashPath, setprivPath, problem, cgroups, overlay, items };
}
