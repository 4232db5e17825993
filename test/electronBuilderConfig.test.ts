// electron-builder.yml is validated offline against electron-builder's own JSON schema (app-builder-lib/scheme.json),
// with the YAML parser and the JSON-schema validator electron-builder itself depends on. No packaging, no network.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { pathToFileURL } from 'node:url';

const root = join(import.meta.dirname, '..');
const requireFromProject = createRequire(join(root, 'package.json'));
// Resolve js-yaml and ajv the way app-builder-lib does, so the test does not depend on npm's hoisting.
const builderLibDir = dirname(requireFromProject.resolve('app-builder-lib/package.json'));
const requireFromBuilder = createRequire(join(builderLibDir, 'package.json'));

interface YamlModule {
  load(text: string): unknown;
}
interface ValidationError {
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}
interface ValidateFunction {
  (data: unknown): boolean;
  errors?: ValidationError[] | null;
}
interface AjvInstance {
  compile(schema: object): ValidateFunction;
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance;

const yaml = requireFromBuilder('js-yaml') as YamlModule;
const ajvModule = requireFromBuilder('ajv') as { default: AjvConstructor };
const schema = JSON.parse(readFileSync(join(builderLibDir, 'scheme.json'), 'utf8')) as object;

// strict: false because the schema uses electron-builder's own keyword ("typeof": "function") for hooks. Unlike
// electron-builder we do not coerce types, so `npmRebuild: "false"` is an error here rather than silently a boolean.
const validate = new ajvModule.default({ allErrors: true, strict: false }).compile(schema);

type Config = Record<string, unknown>;

function loadConfig(): Config {
  const parsed = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8'));
  assert.ok(parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed), 'electron-builder.yml must be a mapping');
  return parsed as Config;
}

function errorsOf(config: unknown): string[] {
  return validate(config) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

const NATIVE_MODULES = ['better-sqlite3', 'node-pty', 'keytar'];

describe('electron-builder.yml', () => {
  test('matches electron-builder’s JSON schema', () => {
    assert.deepEqual(errorsOf(loadConfig()), []);
  });

  test('the validation rejects unknown keys, misplaced keys and wrong types', () => {
    const config = loadConfig();
    const unknownRoot = { ...config, notAnElectronBuilderOption: true };
    assert.ok(errorsOf(unknownRoot).some((e) => e.includes('notAnElectronBuilderOption')), 'an unknown top-level key must fail');

    const unknownFuse = { ...config, electronFuses: { ...(config.electronFuses as object), runAsNodeTypo: false } };
    assert.ok(errorsOf(unknownFuse).some((e) => e.includes('runAsNodeTypo')), 'an unknown fuse must fail');

    const misplaced = { ...config, linux: { ...(config.linux as object), hardenedRuntime: true } };
    assert.ok(errorsOf(misplaced).some((e) => e.includes('hardenedRuntime')), 'a mac-only key under linux must fail');

    assert.notDeepEqual(errorsOf({ ...config, npmRebuild: 'false' }), [], 'a string where a boolean belongs must fail');
  });

  test('pins the installed Electron version', () => {
    const installed = (requireFromProject('electron/package.json') as { version: string }).version;
    assert.equal(loadConfig().electronVersion, installed);
  });

  test('sets the security fuses', () => {
    assert.deepEqual(loadConfig().electronFuses, {
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  test('ships dist/ and package.json, with the native modules unpacked from the asar', () => {
    const config = loadConfig();
    const files = config.files as string[];
    assert.ok(files.includes('dist/**') && files.includes('package.json'));
    assert.equal(config.asar, true);
    for (const name of NATIVE_MODULES) assert.ok((config.asarUnpack as string[]).includes(`node_modules/${name}/**`), `${name} must be unpacked`);
  });

  test('never rebuilds node_modules in place; the afterPack hook brings the Electron builds', async () => {
    const config = loadConfig();
    assert.equal(config.npmRebuild, false);
    assert.equal(config.nodeGypRebuild, false);
    assert.equal(config.afterPack, './scripts/electron-native.mjs');
    const hook = (await import(pathToFileURL(join(root, 'scripts', 'electron-native.mjs')).href)) as { afterPack?: unknown; NATIVE_MODULES?: unknown };
    assert.equal(typeof hook.afterPack, 'function');
    assert.deepEqual(hook.NATIVE_MODULES, NATIVE_MODULES);
  });

  test('builds AppImage and deb, dmg and nsis, and publishes nothing', () => {
    const config = loadConfig() as { linux: { target: string[] }; mac: { target: string[] }; win: { target: string[] }; publish: unknown; productName: unknown };
    assert.equal(config.productName, 'Omniscient Shell');
    assert.deepEqual(config.linux.target, ['AppImage', 'deb']);
    assert.deepEqual(config.mac.target, ['dmg']);
    assert.deepEqual(config.win.target, ['nsis']);
    assert.equal(config.publish, null);
  });
});
