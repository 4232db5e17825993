import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isAlive } from '../../base/processTable';

/**
 * Per-run cgroups for the limits a run asks for. Both layouts exist in the wild: cgroup v1 (a hierarchy per
 * controller: memory.limit_in_bytes, pids.max, cpu.cfs_quota_us) and v2 (one hierarchy: memory.max, pids.max,
 * cpu.max, usable only where the controller is delegated to our cgroup). A run's cgroup is created below the
 * host's own cgroup in each hierarchy, so the limits of whoever started the host still apply above it.
 */
export type Controller = 'memory' | 'pids' | 'cpu';

export interface ControllerPlace {
  controller: Controller;
  version: 1 | 2;
  /** The directory under which per-run cgroups are created. */
  parent: string;
}

export interface CgroupSupport {
  places: Partial<Record<Controller, ControllerPlace>>;
  /** Why a controller is not usable, in words, for the probe. */
  missing: Partial<Record<Controller, string>>;
}

interface Mount {
  type: 'cgroup' | 'cgroup2';
  point: string;
  controllers: string[];
}

function cgroupMounts(): Mount[] {
  let text = '';
  try {
    text = readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    return [];
  }
  const mounts: Mount[] = [];
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (!right) continue;
    const [type, , superOptions = ''] = right.split(' ');
    if (type !== 'cgroup' && type !== 'cgroup2') continue;
    const point = unescapeMount(left.split(' ')[4]);
    mounts.push({ type, point, controllers: type === 'cgroup' ? superOptions.split(',') : [] });
  }
  return mounts;
}

function unescapeMount(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** /proc/self/cgroup: hierarchy controllers ("memory", "" for v2) → our path in it. */
function ownPaths(): Map<string, string> {
  const paths = new Map<string, string>();
  try {
    for (const line of readFileSync('/proc/self/cgroup', 'utf8').split('\n')) {
      const match = /^\d+:([^:]*):(.*)$/.exec(line);
      if (match) for (const controller of match[1].split(',')) paths.set(controller, match[2]);
    }
  } catch {
    // not Linux, or no /proc
  }
  return paths;
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}


export function detectCgroups(): CgroupSupport {
  const support: CgroupSupport = { places: {}, missing: {} };
  const mounts = cgroupMounts();
  const own = ownPaths();
  const v2 = mounts.find((m) => m.type === 'cgroup2');
  const v2Own = v2 && own.has('') ? join(v2.point, own.get('')!) : null;
  const v2Available = v2Own && existsSync(join(v2Own, 'cgroup.controllers')) ? readFileSync(join(v2Own, 'cgroup.controllers'), 'utf8').trim().split(/\s+/) : [];
  const v2Delegated = v2Own && existsSync(join(v2Own, 'cgroup.subtree_control')) ? readFileSync(join(v2Own, 'cgroup.subtree_control'), 'utf8').trim().split(/\s+/) : [];
  for (const controller of ['memory', 'pids', 'cpu'] as const) {
    const v1 = mounts.find((m) => m.type === 'cgroup' && m.controllers.includes(controller));
    if (v1) {
      const parent = join(v1.point, own.get(controller) ?? '/');
      if (existsSync(join(parent, 'cgroup.procs'))) {
        if (writable(parent)) support.places[controller] = { controller, version: 1, parent };
        else support.missing[controller] = `cgroup v1 ${controller} controller at ${parent} is not writable by this user`;
        continue;
      }
    }
    if (v2Own && v2Available.includes(controller)) {
      if (v2Delegated.includes(controller) && writable(v2Own)) support.places[controller] = { controller, version: 2, parent: v2Own };
      else support.missing[controller] = `cgroup v2 ${controller} controller is not delegated to ${v2Own} (start the app in a delegated scope, e.g. systemd-run --user --scope -p Delegate=yes)`;
      continue;
    }
    support.missing[controller] = `no writable ${controller} controller`;
  }
  return support;
}

export interface RunCgroup {
  /** The cgroup.procs files the run's first process writes its pid into, before it starts anything. */
  procsFiles: string[];
  /** What was applied, for PreparedLaunch.enforced: "cgroup-v1:memory", ... */
  enforced: string[];
  limitHit(): string | null;
  /** Kills every process left in the run's cgroups and removes them. */
  remove(): void;
}

export interface CgroupRequest {
  memBytes?: number;
  pids?: number;
  cpuMillicores?: number;
}

const CPU_PERIOD_US = 100_000;

/** Creates the run's cgroups and writes its limits; a controller the machine does not offer is skipped (and not reported as enforced). */
export function createRunCgroup(support: CgroupSupport, name: string, request: CgroupRequest): RunCgroup {
  const dirs: { place: ControllerPlace; dir: string }[] = [];
  const enforced: string[] = [];
  const wants: [Controller, number | undefined][] = [
    ['memory', request.memBytes],
    ['pids', request.pids],
    ['cpu', request.cpuMillicores],
  ];
  const v2Dirs = new Map<string, string>();
  try {
    for (const [controller, value] of wants) {
      const place = support.places[controller];
      if (value === undefined || !place) continue;
      let dir = place.version === 2 ? v2Dirs.get(place.parent) : undefined;
      if (!dir) {
        dir = join(place.parent, name);
        mkdirSync(dir);
        dirs.push({ place, dir });
        if (place.version === 2) v2Dirs.set(place.parent, dir);
      }
      writeLimit(place, dir, value);
      enforced.push(`cgroup-v${place.version}:${controller}`);
    }
  } catch (error) {
    removeDirs(dirs.map((d) => d.dir));
    throw error;
  }
  const unique = [...new Set(dirs.map((d) => d.dir))];
  if (dirs.length > 0) startJoinGracePeriod(dirs[0].place.parent);
  return {
    procsFiles: unique.map((dir) => join(dir, 'cgroup.procs')),
    enforced,
    limitHit: () => limitHit(dirs, request),
    remove: () => removeDirs(unique),
  };
}

/**
 * The first write to a cgroup.procs file after a quiet spell waits for an RCU grace period before it moves anything
 * (the kernel's cgroup_threadgroup_rwsem switching to its writer mode), while writes that follow within about one
 * more grace period do not wait. The run's first process joins its cgroups that way before it starts anything, so
 * without a head start that wait sits in every limited run's startup (docs/performance.md#sandbox). Writing the
 * host's own pid into the cgroup the host is already in (`parent`, where detectCgroups found it) moves nothing but
 * takes the same path: made here, off the event loop while the caller spawns the run, it starts the grace period
 * early, and the run's join finds it under way or passed. Its outcome does not matter (a host that may not write
 * there simply gets no head start).
 */
function startJoinGracePeriod(parent: string): void {
  // Write-only without O_CREAT: only ever into a cgroup.procs that exists.
  writeFile(join(parent, 'cgroup.procs'), String(process.pid), { flag: constants.O_WRONLY }).catch(() => undefined);
}

function writeLimit(place: ControllerPlace, dir: string, value: number): void {
  const put = (file: string, text: string) => writeFileSync(join(dir, file), text);
  if (place.controller === 'memory') {
    if (place.version === 1) {
      put('memory.limit_in_bytes', String(value));
      // With swap accounting, memory+swap gets the same bound, so the run cannot swap its way past the limit.
      if (existsSync(join(dir, 'memory.memsw.limit_in_bytes'))) put('memory.memsw.limit_in_bytes', String(value));
    } else {
      put('memory.max', String(value));
      if (existsSync(join(dir, 'memory.swap.max'))) put('memory.swap.max', '0');
    }
  } else if (place.controller === 'pids') {
    put('pids.max', String(value));
  } else {
    const quota = Math.max(1000, Math.round((value / 1000) * CPU_PERIOD_US));
    if (place.version === 1) {
      put('cpu.cfs_period_us', String(CPU_PERIOD_US));
      put('cpu.cfs_quota_us', String(quota));
    } else put('cpu.max', `${quota} ${CPU_PERIOD_US}`);
  }
}

function readCounter(file: string, key: string): number {
  try {
    const match = new RegExp(`^${key} (\\d+)$`, 'm').exec(readFileSync(file, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function limitHit(dirs: { place: ControllerPlace; dir: string }[], request: CgroupRequest): string | null {
  for (const { place, dir } of dirs) {
    const events = place.version === 1 ? 'memory.oom_control' : 'memory.events';
    if ((place.controller === 'memory' || place.version === 2) && readCounter(join(dir, events), 'oom_kill') > 0 && request.memBytes !== undefined) {
      return `memory limit of ${formatBytes(request.memBytes)} reached: the kernel killed a process of the run`;
    }
    if ((place.controller === 'pids' || place.version === 2) && readCounter(join(dir, 'pids.events'), 'max') > 0 && request.pids !== undefined) {
      return `process limit of ${request.pids} reached: the run could not start more processes or threads`;
    }
  }
  return null;
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function pidsIn(dir: string): number[] {
  try {
    return readFileSync(join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** SIGKILL to every member (v2: cgroup.kill does it in one write). */
function killMembers(dir: string): void {
  if (existsSync(join(dir, 'cgroup.kill'))) {
    try {
      writeFileSync(join(dir, 'cgroup.kill'), '1');
      return;
    } catch {
      // fall through to signalling each process
    }
  }
  for (const pid of pidsIn(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Removes the directories that are empty now; returns those that are not. */
function rmdirEmpty(dirs: Iterable<string>): Set<string> {
  const left = new Set<string>();
  for (const dir of dirs) {
    try {
      rmdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') left.add(dir);
    }
  }
  return left;
}

/**
 * Kills what is left, then removes the cgroups. The sandbox's own teardown (a pid namespace's init unmounting and
 * exiting) can outlast the process the caller waited for by tens of milliseconds, and the kernel refuses to remove
 * a cgroup (EBUSY) until its last task is gone: so the kill is repeated (a member may fork between the listing and
 * the signal) and the removal retried in the background, without blocking the host, for up to 10 s.
 */
function removeDirs(dirs: string[]): void {
  for (const dir of dirs) killMembers(dir);
  let left = rmdirEmpty(dirs);
  const deadline = Date.now() + 10_000;
  const retry = () => {
    for (const dir of left) killMembers(dir);
    left = rmdirEmpty(left);
    if (left.size > 0 && Date.now() < deadline) setTimeout(retry, 10).unref();
  };
  if (left.size > 0) setTimeout(retry, 5).unref();
}

/** Removes run cgroups that host processes now dead left behind (a crash before dispose, or an exit mid-retry). */
export function sweepStaleCgroups(support: CgroupSupport): void {
  for (const place of Object.values(support.places)) {
    let names: string[];
    try {
      names = readdirSync(place.parent);
    } catch {
      continue;
    }
    const stale = names
      .filter((name) => {
        const match = /^omni-run-(\d+)-/.exec(name);
        return match !== null && !isAlive(Number(match[1]));
      })
      .map((name) => join(place.parent, name));
    if (stale.length > 0) removeDirs(stale);
  }
}

