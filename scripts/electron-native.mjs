#!/usr/bin/env node
// Builds the native modules (better-sqlite3, node-pty, keytar) for Electron's ABI into a SEPARATE folder,
//   .cache/electron-native/<electron version>/node_modules/<name>
// and never touches the project's node_modules, whose Node builds the tests, the CLI and `omni serve` load.
// The Electron main process points the host at that folder with OMNI_NATIVE_MODULES_DIR
// (src-main/electron-main/nativeModulesDir.ts, src-main/node/base/native.ts).
//
//   node scripts/electron-native.mjs            build unless an up-to-date build exists (exit 0 when ready)
//   node scripts/electron-native.mjs --force    rebuild even if one exists
//   node scripts/electron-native.mjs --check    exit 0 if an up-to-date build exists, 1 if not; builds nothing
//   node scripts/electron-native.mjs --no-verify  build without the Electron binary (packaging machines); the
//                                               build is then not test-loaded in Electron
//
// Exit codes: 0 ready, 1 unexpected error or --check found none, 2 no Electron binary, 3 the build failed
// (typically: Electron's headers cannot be downloaded from electronjs.org, or no C++ toolchain).
//
// The build happens in a staging folder and only replaces the previous one after Electron itself has loaded every
// module from it, so a failed or half-finished build never leaves a broken folder behind.
//
// This file is also electron-builder's afterPack hook (see electron-builder.yml): packaging copies the verified
// Electron builds over the Node builds in app.asar.unpacked, because electron-builder's own rebuild (npmRebuild)
// would rebuild the project's node_modules in place.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NATIVE_MODULES = ['better-sqlite3', 'node-pty', 'keytar'];
/** Same name in src-main/electron-main/nativeModulesDir.ts: its presence means "verified, ready to load". */
export const NATIVE_BUILD_MARKER = 'omni-electron-native.json';
/** Dependencies only needed while installing from npm; copying them (and their trees) would achieve nothing. */
const INSTALL_TIME_ONLY = new Set(['prebuild-install']);
/** npm exports its config to scripts as npm_config_*; node-gyp reads these, and nodedir/target would make it
 * build against Node's headers while calling the result an Electron build. */
const NODE_GYP_CONFIG_OVERRIDES = /^npm_config_(nodedir|target|target_arch|arch|runtime|disturl|dist_url|build_from_source|devdir)$/i;
const VERIFY_TIMEOUT_MS = 60_000;

const projectRootOfThisScript = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const log = (message) => console.log(`electron-native: ${message}`);

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The installed electron package's version (the version electron-builder.yml pins too). */
export function electronVersion(projectRoot = projectRootOfThisScript) {
  return readJson(join(projectRoot, 'node_modules', 'electron', 'package.json')).version;
}

function defaultExecutableName(platform = process.platform) {
  if (platform === 'darwin' || platform === 'mas') return 'Electron.app/Contents/MacOS/Electron';
  return platform === 'win32' ? 'electron.exe' : 'electron';
}

/**
 * The Electron executable if it is present, else undefined. Mirrors node_modules/electron/index.js (path.txt,
 * dist/, ELECTRON_OVERRIDE_DIST_PATH) WITHOUT requiring it: requiring the package starts a download when the
 * binary is missing.
 */
export function findElectronBinary(projectRoot = projectRootOfThisScript, env = process.env) {
  const packageDir = join(projectRoot, 'node_modules', 'electron');
  if (!existsSync(join(packageDir, 'package.json'))) return undefined;
  let relative;
  try {
    relative = readFileSync(join(packageDir, 'path.txt'), 'utf8').trim();
  } catch {
    relative = undefined;
  }
  let executable;
  if (env.ELECTRON_OVERRIDE_DIST_PATH) executable = join(env.ELECTRON_OVERRIDE_DIST_PATH, relative || defaultExecutableName());
  else if (relative) executable = join(packageDir, 'dist', relative);
  return executable && existsSync(executable) && statSync(executable).isFile() ? executable : undefined;
}

export function nativeModulesDir(projectRoot = projectRootOfThisScript, version = electronVersion(projectRoot)) {
  return join(projectRoot, '.cache', 'electron-native', version);
}

/** The versions of the native modules in node_modules: a build made from other versions is stale. */
function sourceVersions(projectRoot) {
  return Object.fromEntries(NATIVE_MODULES.map((name) => [name, readJson(join(projectRoot, 'node_modules', name, 'package.json')).version]));
}

/** True when the separate folder holds a verified build for this Electron, platform, arch and module versions. */
export function isNativeBuildCurrent(projectRoot = projectRootOfThisScript, version = electronVersion(projectRoot)) {
  const dir = nativeModulesDir(projectRoot, version);
  let marker;
  try {
    marker = readJson(join(dir, NATIVE_BUILD_MARKER));
  } catch {
    return false;
  }
  const wanted = sourceVersions(projectRoot);
  return (
    marker.electron === version &&
    marker.platform === process.platform &&
    marker.arch === process.arch &&
    NATIVE_MODULES.every((name) => marker.modules?.[name] === wanted[name] && existsSync(join(dir, 'node_modules', name, 'package.json')))
  );
}

/** Finds `name` the way Node would from `fromDir`, but only within the project (never above its root). */
function locatePackage(name, fromDir, projectRoot) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === projectRoot || dirname(dir) === dir) return undefined;
  }
}

/**
 * Copies the three packages and their runtime dependencies (bindings, file-uri-to-path, node-addon-api...) into
 * `stagingModules`, keeping npm's layout: a package found at the top of node_modules lands at the top, a nested
 * one travels inside its parent's folder. Previous build output (build/) is left behind so nothing of the Node
 * build can survive into the Electron one.
 */
function copyPackages(projectRoot, stagingModules) {
  const topLevel = join(projectRoot, 'node_modules');
  const queue = NATIVE_MODULES.map((name) => ({ name, from: projectRoot }));
  const copied = new Set();
  while (queue.length > 0) {
    const { name, from } = queue.shift();
    const source = locatePackage(name, from, projectRoot);
    if (!source) throw new Error(`cannot find the package "${name}" (needed from ${from}); run npm ci`);
    if (copied.has(source)) continue;
    copied.add(source);
    const isNative = NATIVE_MODULES.includes(name);
    if (dirname(source) === topLevel) {
      cpSync(source, join(stagingModules, name), {
        recursive: true,
        dereference: true,
        filter: (path) => !(isNative && path === join(source, 'build')),
      });
    } else if (![...copied].some((c) => c !== source && source.startsWith(c + sep))) {
      throw new Error(`unexpected layout: ${source} is nested under no package that was copied`);
    }
    const { dependencies = {}, optionalDependencies = {} } = readJson(join(source, 'package.json'));
    for (const dependency of Object.keys({ ...dependencies, ...optionalDependencies })) {
      if (!INSTALL_TIME_ONLY.has(dependency)) queue.push({ name: dependency, from: source });
    }
  }
  return copied.size;
}

/** Loads every module from `dir` inside Electron running as Node: the only proof the ABI is right. */
function verifyInElectron(electronBinary, dir) {
  const script = `
    const { createRequire } = require('node:module');
    const path = require('node:path');
    const dir = process.env.OMNI_VERIFY_DIR;
    const load = createRequire(path.join(dir, 'package.json'));
    for (const name of ${JSON.stringify(NATIVE_MODULES)}) {
      const resolved = load.resolve(name);
      if (!resolved.startsWith(dir + path.sep)) throw new Error(name + ' resolved outside the build folder: ' + resolved);
      const loaded = load(name);
      if (name === 'better-sqlite3') new loaded(':memory:').close();
    }
    console.log('loaded in Electron ' + process.versions.electron + ' (modules ABI ' + process.versions.modules + ')');
  `;
  return new Promise((resolvePromise) => {
    const child = spawn(electronBinary, ['-e', script], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', OMNI_VERIFY_DIR: dir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), VERIFY_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolvePromise({ ok: false, output: error.message });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ ok: code === 0, output: output.trim() });
    });
  });
}

/**
 * Builds (or confirms) the Electron-ABI native modules. Returns { code, dir, reason } with the exit codes above;
 * never throws for the expected failures (no binary, no headers), never touches node_modules.
 */
export async function buildElectronNativeModules({ projectRoot = projectRootOfThisScript, force = false, verify = true } = {}) {
  const version = electronVersion(projectRoot);
  const dir = nativeModulesDir(projectRoot, version);
  if (!force && isNativeBuildCurrent(projectRoot, version)) return { code: 0, dir, reason: `up to date for Electron ${version}` };

  const electronBinary = findElectronBinary(projectRoot);
  if (verify && !electronBinary) {
    return {
      code: 2,
      dir,
      reason:
        `the Electron ${version} binary is not installed (node_modules/electron/path.txt and dist/ are missing), so ` +
        'there is nothing to build for. Try `node node_modules/electron/install.js`, or pass --no-verify to build anyway.',
    };
  }

  const staging = `${dir}.staging-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'node_modules'), { recursive: true });
  try {
    const versions = sourceVersions(projectRoot);
    const count = copyPackages(projectRoot, join(staging, 'node_modules'));
    log(`copied ${count} packages into ${staging}`);
    // @electron/rebuild walks the dependencies of this package.json, and only below projectRootPath (= staging).
    writeFileSync(join(staging, 'package.json'), JSON.stringify({ name: 'omni-electron-native', private: true, dependencies: versions }, null, 2));

    for (const key of Object.keys(process.env)) if (NODE_GYP_CONFIG_OVERRIDES.test(key)) delete process.env[key];
    const { rebuild } = await import('@electron/rebuild');
    log(`building ${NATIVE_MODULES.join(', ')} for Electron ${version} (${process.platform}-${process.arch})...`);
    const started = Date.now();
    await rebuild({
      buildPath: staging,
      projectRootPath: staging,
      electronVersion: version,
      arch: process.arch,
      onlyModules: NATIVE_MODULES,
      types: ['prod'],
      force: true,
      // One download of the headers, not one per module; a mirror can be given as for electron-rebuild itself.
      mode: 'sequential',
      headerURL: process.env.ELECTRON_REBUILD_DIST_URL || undefined,
    });
    log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);

    if (electronBinary) {
      const check = await verifyInElectron(electronBinary, staging);
      if (!check.ok) throw new Error(`the build does not load in Electron:\n${check.output}`);
      log(check.output);
    } else {
      log('not verified: no Electron binary (--no-verify)');
    }
    writeFileSync(
      join(staging, NATIVE_BUILD_MARKER),
      JSON.stringify({ electron: version, platform: process.platform, arch: process.arch, modules: versions, verified: Boolean(electronBinary), builtAt: new Date().toISOString() }, null, 2),
    );
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return { code: 0, dir, reason: `built for Electron ${version}` };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const message = error instanceof Error ? error.message : String(error);
    return {
      code: 3,
      dir,
      reason:
        `could not build the native modules for Electron ${version}: ${message.split('\n').slice(0, 12).join('\n')}\n` +
        'Building needs Electron\'s headers (downloaded from https://www.electronjs.org/headers, cached in ~/.electron-gyp) ' +
        'and a C++ toolchain. The Node builds in node_modules are untouched.',
    };
  }
}

/** electron-builder's Arch enum, by value. */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal'];
/** Build outputs that are never loaded at run time. */
const LINK_TIME_ONLY = new Set(['.a', '.lib', '.exp', '.pdb', '.ilk', '.o', '.obj']);

/**
 * electron-builder afterPack hook: replaces the Node builds that electron-builder copied into app.asar.unpacked
 * with the verified Electron builds from the separate folder. Fails the packaging when there are none, or when
 * packaging for another platform or arch (native modules cannot be cross-compiled).
 */
export async function afterPack(context) {
  const platform = context.electronPlatformName;
  const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
  if (platform !== process.platform || arch !== process.arch) {
    throw new Error(`native modules are built for this machine (${process.platform}-${process.arch}) only; package ${platform}-${arch} on such a machine`);
  }
  const projectRoot = context.packager?.info?.projectDir ?? projectRootOfThisScript;
  const version = context.packager?.config?.electronVersion ?? electronVersion(projectRoot);
  if (!isNativeBuildCurrent(projectRoot, version)) {
    throw new Error(`no up-to-date Electron ${version} build of the native modules: run \`node scripts/electron-native.mjs\` before packaging`);
  }
  const built = join(nativeModulesDir(projectRoot, version), 'node_modules');
  const unpacked = join(context.packager.getResourcesDir(context.appOutDir), 'app.asar.unpacked', 'node_modules');
  for (const name of NATIVE_MODULES) {
    const target = join(unpacked, name);
    if (!existsSync(target)) throw new Error(`${name} is not in ${unpacked}; check asarUnpack in electron-builder.yml`);
    const release = join(built, name, 'build', 'Release');
    const packedRelease = join(target, 'build', 'Release');
    // Electron serves a file from app.asar.unpacked only if the asar header lists it, so every loadable Electron
    // file must replace a packed Node file of the same name (the header was written before this hook ran).
    const packed = new Set(existsSync(packedRelease) ? readdirSync(packedRelease) : []);
    // The loadable files only (.node, node-pty's spawn-helper), not static libraries or debug symbols.
    const loadable = readdirSync(release, { withFileTypes: true })
      .filter((entry) => entry.isFile() && !LINK_TIME_ONLY.has(extname(entry.name).toLowerCase()) && !entry.name.startsWith('.'))
      .map((entry) => entry.name);
    const unlisted = loadable.filter((file) => extname(file) === '.node' && !packed.has(file));
    if (unlisted.length > 0) {
      throw new Error(`${name}: the Electron build has ${unlisted.join(', ')}, which the packed Node build lacks; the app could not load it from the asar`);
    }
    rmSync(join(target, 'build'), { recursive: true, force: true });
    mkdirSync(packedRelease, { recursive: true });
    for (const file of loadable) cpSync(join(release, file), join(packedRelease, file));
    log(`packaged the Electron build of ${name}`);
  }
}

async function main(argv) {
  const flags = new Set(argv);
  for (const flag of flags) {
    if (!['--force', '--check', '--no-verify'].includes(flag)) {
      console.error(`electron-native: unknown option ${flag}`);
      return 1;
    }
  }
  if (flags.has('--check')) {
    const current = isNativeBuildCurrent();
    log(current ? `up to date in ${nativeModulesDir()}` : 'no up-to-date build');
    return current ? 0 : 1;
  }
  const result = await buildElectronNativeModules({ force: flags.has('--force'), verify: !flags.has('--no-verify') });
  (result.code === 0 ? console.log : console.error)(`electron-native: ${result.reason}`);
  if (result.code === 0) log(`ready: OMNI_NATIVE_MODULES_DIR=${result.dir}`);
  return result.code;
}

// Run as a command only when executed directly, not when electron-builder or start.mjs imports the hook.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error('electron-native:', error);
      process.exit(1);
    },
  );
}
