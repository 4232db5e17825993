// Runs src-main/electron-main for real, against the electron stand-in (../electronStandIn): bundles the shell with
// `electron` resolved to the stand-in (only in this bundle, under .cache/, never in dist/), starts it as its own app
// process with a fresh home, and talks to the driver inside it (appProcessDriver.ts).
import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { bundleForNode, companionEntries, nodeExternals } from '../../../scripts/nodeBundle.mjs';
import type { StandInRecord } from '../electronStandIn/standInEvents';
import type { AppState, DriverCommand, DriverMessage } from './driverProtocol';

const root = join(__dirname, '..', '..', '..');
const standInDir = join(__dirname, '..', 'electronStandIn');

/** A built shell: `<dir>/electron/main.js` (shell + stand-in + driver), hostProcess.js and its companions, a renderer. */
export interface ShellBuild {
  readonly dir: string;
  /** A file beside the renderer folder that app:// must never serve. */
  readonly secret: string;
  dispose(): void;
}

export const FAKE_RENDERER_HTML = '<!doctype html><title>Omniscient Shell</title><script src="app.js"></script>';
export const FAKE_RENDERER_JS = 'document.title = "stand-in renderer";';
export const SECRET_TEXT = 'outside the renderer build';

/** Resolves `electron` to the stand-in; this plugin is used by this bundle and nowhere else. */
const electronStandIn: Plugin = {
  name: 'electron-stand-in',
  setup(b) {
    b.onResolve({ filter: /^electron$/ }, () => ({ path: join(standInDir, 'index.ts') }));
  },
};

/**
 * Bundles the shell as scripts/build.mjs does (same entry points, same externals), except that `electron` is the
 * stand-in. The build lives under the project's .cache/ so that the host finds the project's node_modules (its
 * native modules, built for this Node) the way dist/electron does.
 */
export async function buildShell(): Promise<ShellBuild> {
  const cacheDir = join(root, '.cache', 'electron-shell-tests');
  mkdirSync(cacheDir, { recursive: true });
  const dir = mkdtempSync(join(cacheDir, 'build-'));
  const out = join(dir, 'electron');
  const common: BuildOptions = { bundle: true, format: 'cjs', platform: 'node', target: ['node20'], logLevel: 'warning' };
  await Promise.all([
    build({
      ...common,
      entryPoints: [join(__dirname, 'appProcessEntry.ts')],
      outfile: join(out, 'main.js'),
      external: nodeExternals.filter((name) => name !== 'electron'),
      plugins: [electronStandIn],
    }),
    build({ ...common, entryPoints: [join(standInDir, 'parentPortShim.ts')], outfile: join(out, 'electronStandInParentPort.cjs') }),
    bundleForNode({ entryPoints: [join(root, 'src-main/electron-main/hostProcess.ts')], outfile: join(out, 'hostProcess.js') }),
    ...Object.entries(companionEntries).map(([name, entry]) => bundleForNode({ entryPoints: [join(root, entry)], outfile: join(out, `${name}.cjs`) })),
  ]);
  // A small stand-in for dist/renderer: the app:// tests need files, not the real renderer build.
  const renderer = join(dir, 'renderer');
  mkdirSync(join(renderer, 'assets'), { recursive: true });
  writeFileSync(join(renderer, 'index.html'), FAKE_RENDERER_HTML);
  writeFileSync(join(renderer, 'app.js'), FAKE_RENDERER_JS);
  writeFileSync(join(renderer, 'assets', 'style.css'), 'body { margin: 0 }');
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, SECRET_TEXT);
  // A symlink inside the build that points outside it.
  symlinkSync(secret, join(renderer, 'leak.txt'));
  return { dir, secret, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface AppExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** One running app process (what `electron dist/electron/main.js` would be) and the driver inside it. */
export class AppProcess {
  readonly records: StandInRecord[] = [];
  readonly exited: Promise<AppExit>;
  private output = '';
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private exit: AppExit | undefined;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    child.on('message', (raw: DriverMessage) => {
      if ('record' in raw) this.records.push(raw.record);
      else if ('id' in raw) {
        const waiter = this.pending.get(raw.id);
        this.pending.delete(raw.id);
        if (raw.ok) waiter?.resolve(raw.result);
        else waiter?.reject(new Error(raw.error));
      }
    });
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        for (const waiter of this.pending.values()) waiter.reject(new Error(`the app process exited (${code ?? signal})`));
        this.pending.clear();
        resolve(this.exit);
      }),
    );
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Everything the app process and its host printed. */
  log(): string {
    return this.output;
  }

  command<T = unknown>(command: DriverCommand): Promise<T> {
    if (this.exit) return Promise.reject(new Error('the app process has exited'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.send({ ...command, id });
    });
  }

  state(): Promise<AppState> {
    return this.command<AppState>({ cmd: 'state' });
  }

  /** Polls `check` until it gives a value other than undefined/false, or fails with the app's output. */
  async waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await check();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; the app printed:\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends the app process and everything in its process group (a test that failed halfway). */
  kill(): void {
    if (this.exit) return;
    try {
      process.kill(-this.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** A fresh app home and user home for one app, in the OS temp folder. */
export function makeHomes(): { home: string; userHome: string; dispose(): void } {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'omni-shell-')));
  const home = join(base, 'home');
  const userHome = join(base, 'user');
  mkdirSync(home);
  mkdirSync(userHome);
  return { home, userHome, dispose: () => rmSync(base, { recursive: true, force: true }) };
}

/** Starts the built shell on `home`, in a process group of its own (so a failed test can end all of it). */
export function startApp(shell: ShellBuild, home: string, userHome: string): AppProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: userHome, OMNI_HOME: home, OMNI_KEYCHAIN: 'off' };
  delete env.NODE_OPTIONS;
  delete env.OMNI_NATIVE_MODULES_DIR;
  const child = fork(join(shell.dir, 'electron', 'main.js'), [], {
    cwd: shell.dir,
    env,
    execArgv: [],
    serialization: 'advanced',
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    detached: true,
  });
  return new AppProcess(child);
}

/** Every process below `pid` now (children, their children, ...), from `ps`. */
export function descendantsOf(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number));
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

/** True while `pid` runs (a zombie waiting to be reaped has finished running, so it counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}
