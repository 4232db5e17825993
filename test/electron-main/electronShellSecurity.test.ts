// The Electron shell cannot run on a machine without the Electron binary, so its security settings are checked
// statically (by parsing the sources with the TypeScript compiler), its pure parts are unit-tested, and its
// bundles are built to prove they compile with the externals the runtime expects.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, test } from 'node:test';
import { build } from 'esbuild';
import ts from 'typescript';
import { RENDERER_CONTENT_SECURITY_POLICY, RENDERER_SECURITY_HEADERS } from '../../src-main/electron-main/contentSecurityPolicy';
import { isSafeExternalUrl } from '../../src-main/electron-main/externalLinks';
import { parseHostToMainMessage, parseMainToHostMessage } from '../../src-main/electron-main/hostProcessMessages';
import { electronNativeModulesDir, NATIVE_BUILD_MARKER } from '../../src-main/electron-main/nativeModulesDir';
import { isPermissionGranted } from '../../src-main/electron-main/permissionPolicy';
import { lookupRendererFile } from '../../src-main/electron-main/rendererFiles';
import { isRendererUrl, RENDERER_ENTRY_URL } from '../../src-main/electron-main/rendererOrigin';
import { isTrustedTopFrame } from '../../src-main/electron-main/trustedFrame';

const root = join(import.meta.dirname, '..', '..');
const shellDir = join(root, 'src-main', 'electron-main');

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
  visit(node);
  node.forEachChild((child) => walk(child, visit));
}

function propertyName(property: ts.ObjectLiteralElementLike): string | undefined {
  return property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : undefined;
}

/** The object literal passed to `new BrowserWindow(...)` in `file` (exactly one such call is expected). */
function browserWindowOptions(file: string): ts.ObjectLiteralExpression {
  const found: ts.ObjectLiteralExpression[] = [];
  walk(parse(file), (node) => {
    if (ts.isNewExpression(node) && node.expression.getText() === 'BrowserWindow') {
      const [options] = node.arguments ?? [];
      assert.ok(options && ts.isObjectLiteralExpression(options), 'BrowserWindow options must be an object literal');
      found.push(options);
    }
  });
  assert.equal(found.length, 1, `expected one new BrowserWindow(...) in ${file}`);
  return found[0];
}

function literalProperties(object: ts.ObjectLiteralExpression): Map<string, string> {
  const result = new Map<string, string>();
  for (const property of object.properties) {
    const name = propertyName(property);
    if (name && ts.isPropertyAssignment(property)) result.set(name, property.initializer.getText());
  }
  return result;
}

/** Every module specifier imported by `file`, with whether the import is type-only. */
function importsOf(file: string): { from: string; typeOnly: boolean; names: string[] }[] {
  const result: { from: string; typeOnly: boolean; names: string[] }[] = [];
  for (const statement of parse(file).statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const clause = statement.importClause;
    const bindings = clause?.namedBindings;
    const named = bindings && ts.isNamedImports(bindings) ? bindings.elements : [];
    result.push({
      from: statement.moduleSpecifier.text,
      typeOnly: Boolean(clause?.isTypeOnly) || (named.length > 0 && named.every((e) => e.isTypeOnly) && !clause?.name),
      names: named.map((e) => e.name.text),
    });
  }
  return result;
}

const source = (name: string): string => readFileSync(join(shellDir, name), 'utf8');
const shellSourceFiles = (): string[] => readdirSync(shellDir).filter((name) => name.endsWith('.ts'));

describe('the Electron window', () => {
  const webPreferences = (() => {
    const options = browserWindowOptions(join(shellDir, 'mainWindow.ts'));
    const property = options.properties.find((p) => propertyName(p) === 'webPreferences');
    assert.ok(property && ts.isPropertyAssignment(property) && ts.isObjectLiteralExpression(property.initializer));
    return literalProperties(property.initializer);
  })();

  const required: Record<string, string> = {
    contextIsolation: 'true',
    sandbox: 'true',
    nodeIntegration: 'false',
    nodeIntegrationInWorker: 'false',
    nodeIntegrationInSubFrames: 'false',
    webSecurity: 'true',
    allowRunningInsecureContent: 'false',
    experimentalFeatures: 'false',
    webviewTag: 'false',
  };
  for (const [name, value] of Object.entries(required)) {
    test(`sets ${name}: ${value}`, () => assert.equal(webPreferences.get(name), value));
  }

  test('never enables Blink features or turns off the same-origin policy by other means', () => {
    assert.equal(webPreferences.has('enableBlinkFeatures'), false);
    assert.equal(webPreferences.has('additionalArguments'), false);
  });

  test('loads the renderer from app://, never file://', () => {
    const all = shellSourceFiles().map(source).join('\n');
    assert.doesNotMatch(all, /\bloadFile\s*\(/);
    assert.doesNotMatch(all, /['"`]file:/);
    assert.match(source('mainWindow.ts'), /loadURL\(RENDERER_ENTRY_URL\)/);
    assert.equal(RENDERER_ENTRY_URL, 'app://omni/index.html');
  });

  test('sandboxes every renderer and hardens every web contents', () => {
    const main = source('main.ts');
    assert.match(main, /app\.enableSandbox\(\)/);
    assert.match(main, /app\.on\('web-contents-created',\s*\(_event, contents\) => hardenWebContents\(contents\)\)/);
    assert.match(main, /restrictPermissions\(defaultSession\)/);
  });

  test('denies navigation, new windows, webviews, and every permission the policy does not grant', () => {
    const security = source('windowSecurity.ts');
    for (const event of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) {
      assert.match(security, new RegExp(`contents\\.on\\('${event}', \\(event\\) => event\\.preventDefault\\(\\)\\)`), event);
    }
    assert.match(security, /setWindowOpenHandler\([\s\S]*?return \{ action: 'deny' \};/);
    assert.doesNotMatch(security, /action: 'allow'/);
    // Both permission handlers ask the policy and nothing else; device permissions are all refused.
    assert.match(security, /setPermissionRequestHandler\(\(_contents, permission, callback, details\) =>\s*callback\(isPermissionGranted\(permission, \{/);
    assert.match(security, /setPermissionCheckHandler\(\(_contents, permission, requestingOrigin, details\) =>\s*isPermissionGranted\(permission, \{/);
    assert.match(security, /setDevicePermissionHandler\(\(\) => false\)/);
  });

  test('the permission policy grants only clipboard writes and notifications, and only to the top frame of our own page', () => {
    const ours = { requestingUrl: 'app://omni/index.html', isMainFrame: true };
    assert.equal(isPermissionGranted('clipboard-sanitized-write', ours), true);
    assert.equal(isPermissionGranted('notifications', ours), true);
    assert.equal(isPermissionGranted('notifications', { requestingUrl: 'https://example.com/', isMainFrame: true }), false);
    // The check handler is given an origin, not a URL.
    assert.equal(isPermissionGranted('clipboard-sanitized-write', { requestingUrl: 'app://omni', isMainFrame: true }), true);
    for (const permission of ['clipboard-read', 'media', 'geolocation', 'openExternal', 'fullscreen', 'hid', 'unknown']) {
      assert.equal(isPermissionGranted(permission, ours), false, permission);
    }
    for (const request of [
      { requestingUrl: 'app://omni/index.html', isMainFrame: false },
      { requestingUrl: 'https://example.com/', isMainFrame: true },
      { requestingUrl: 'app://other/index.html', isMainFrame: true },
      { requestingUrl: 'file:///etc/passwd', isMainFrame: true },
      { requestingUrl: 'not a url', isMainFrame: true },
    ]) {
      assert.equal(isPermissionGranted('clipboard-sanitized-write', request), false, JSON.stringify(request));
    }
  });

  test('registers app:// without bypassing CSP and serves it with the CSP header', () => {
    const protocolSource = source('appProtocol.ts');
    assert.doesNotMatch(protocolSource, /bypassCSP/);
    assert.match(protocolSource, /privileges: \{ standard: true, secure: true/);
    assert.match(protocolSource, /\.\.\.RENDERER_SECURITY_HEADERS/);
    assert.equal(RENDERER_SECURITY_HEADERS['content-security-policy'], RENDERER_CONTENT_SECURITY_POLICY);
  });
});

describe('the content security policy', () => {
  const directives = new Map(RENDERER_CONTENT_SECURITY_POLICY.split(';').map((d) => {
    const [name, ...values] = d.trim().split(/\s+/);
    return [name, values] as const;
  }));

  test('denies by default and allows scripts only from the app itself', () => {
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'self'"]);
  });

  test('has no unsafe-eval and no inline scripts', () => {
    assert.doesNotMatch(RENDERER_CONTENT_SECURITY_POLICY, /unsafe-eval/);
    assert.ok(!directives.get('script-src')?.includes("'unsafe-inline'"));
  });

  test('forbids plugins, frames, framing, <base> and form posts', () => {
    for (const name of ['object-src', 'frame-src', 'frame-ancestors', 'base-uri', 'form-action']) {
      assert.deepEqual(directives.get(name), ["'none'"], name);
    }
  });
});

describe('the app:// protocol handler', () => {
  const dir = join(root, 'dist', 'renderer');

  test('maps the root and files to the renderer build', () => {
    assert.deepEqual(lookupRendererFile(dir, 'app://omni/'), { ok: true, file: join(dir, 'index.html'), spaFallback: false });
    assert.deepEqual(lookupRendererFile(dir, 'app://omni/app.js'), { ok: true, file: join(dir, 'app.js'), spaFallback: false });
    assert.deepEqual(lookupRendererFile(dir, 'app://omni/sessions/42'), { ok: true, file: join(dir, 'sessions', '42'), spaFallback: true });
  });

  // Encoded dot segments are resolved by the URL parser itself (WHATWG), so they may map to a file, but inside.
  const traversals = [
    'app://omni/%2e%2e/%2e%2e/package.json',
    'app://omni/assets/%2E%2E/%2E%2E/%2E%2E/etc/passwd',
    'app://omni/../../package.json',
    'app://omni/a/./../../../b',
  ];
  for (const url of traversals) {
    test(`keeps ${url} inside the renderer build`, () => {
      const lookup = lookupRendererFile(dir, url);
      assert.ok(!lookup.ok || lookup.file.startsWith(dir + sep), JSON.stringify(lookup));
    });
  }

  const refused = [
    'app://omni/..%2F..%2Fpackage.json',
    'app://omni/..%5C..%5Cpackage.json',
    'app://omni/index.html%00.js',
    'app://omni/C:%5Cwindows',
    'app://omni/%E0%A4%A',
    'app://evil/index.html',
    'https://omni/index.html',
    'not a url',
  ];
  for (const url of refused) {
    test(`refuses ${url}`, () => assert.equal(lookupRendererFile(dir, url).ok, false));
  }

  test('refuses methods other than GET and HEAD', () => {
    assert.deepEqual(lookupRendererFile(dir, 'app://omni/', 'POST'), { ok: false, status: 405, reason: 'method not allowed' });
  });

});

describe('handing out ports', () => {
  const main = { parent: null, processId: 7, routingId: 1, url: 'app://omni/index.html' };

  test('only the top frame of our window on our page gets one', () => {
    assert.equal(isTrustedTopFrame(main, main), true);
    assert.equal(isTrustedTopFrame(main, { ...main, url: 'app://omni/sessions/3' }), true);
    assert.equal(isTrustedTopFrame(main, { ...main, parent: main, routingId: 2 }), false, 'an iframe');
    assert.equal(isTrustedTopFrame(main, { ...main, url: 'https://example.com/' }), false, 'a page that navigated away');
    assert.equal(isTrustedTopFrame(main, { ...main, url: 'app://other/index.html' }), false, 'another app host');
    assert.equal(isTrustedTopFrame(main, { ...main, processId: 8 }), false, 'another window');
    assert.equal(isTrustedTopFrame(main, null), false);
  });

  test('renderer URLs are recognised exactly', () => {
    assert.equal(isRendererUrl('app://omni/'), true);
    assert.equal(isRendererUrl('app://user:pw@omni/'), false);
    assert.equal(isRendererUrl('file:///omni/index.html'), false);
  });

  test('the preload uses the same channel names and exposes nothing', () => {
    const preloadFile = join(root, 'src-preload', 'preload.ts');
    const preload = readFileSync(preloadFile, 'utf8');
    const broker = source('windowPortBroker.ts');
    for (const channel of ['omni:ready', 'omni:port']) {
      assert.ok(preload.includes(`'${channel}'`) && broker.includes(`'${channel}'`), channel);
    }
    const identifiers = new Set<string>();
    walk(parse(preloadFile), (node) => {
      if (ts.isIdentifier(node)) identifiers.add(node.text);
    });
    for (const name of ['contextBridge', 'exposeInMainWorld', 'webFrame', 'require', 'process']) {
      assert.equal(identifiers.has(name), false, `the preload must not use ${name}`);
    }
    const electronImports = importsOf(preloadFile).filter((i) => i.from === 'electron');
    assert.deepEqual(electronImports.flatMap((i) => i.names).sort(), ['IpcRendererEvent', 'ipcRenderer']);
    assert.deepEqual(importsOf(preloadFile).map((i) => i.from), ['electron']);
  });
});

describe('messages between the main and the host process', () => {
  test('are parsed, not trusted', () => {
    assert.deepEqual(parseMainToHostMessage({ type: 'connect', windowId: 3 }), { type: 'connect', windowId: 3 });
    assert.equal(parseMainToHostMessage({ type: 'connect', windowId: -1 }), undefined);
    assert.equal(parseMainToHostMessage({ type: 'connect', windowId: '3' }), undefined);
    assert.equal(parseMainToHostMessage({ type: 'eval', code: 'x' }), undefined);
    assert.equal(parseMainToHostMessage(null), undefined);
    assert.deepEqual(parseHostToMainMessage({ type: 'fatal', message: 42 }), { type: 'fatal', message: 'unknown error' });
    assert.deepEqual(parseHostToMainMessage({ type: 'home_in_use', message: 'Another host' }), { type: 'home_in_use', message: 'Another host' });
    assert.equal(parseHostToMainMessage('ready'), undefined);
  });
});

describe('the Electron build of the native modules', () => {
  const context = { appPath: '/app', isPackaged: false, electronVersion: '45.4.1', env: {} };

  test('an explicit OMNI_NATIVE_MODULES_DIR wins', () => {
    assert.equal(electronNativeModulesDir({ ...context, env: { OMNI_NATIVE_MODULES_DIR: '/x' } }, () => false), '/x');
  });

  test('development uses the verified separate folder, and nothing when it is missing', () => {
    const dir = join('/app', '.cache', 'electron-native', '45.4.1');
    assert.equal(electronNativeModulesDir(context, (p) => p === join(dir, NATIVE_BUILD_MARKER)), dir);
    assert.equal(electronNativeModulesDir(context, () => false), undefined);
  });

  test('a packaged app loads the Electron builds packed into app.asar.unpacked', () => {
    assert.equal(electronNativeModulesDir({ ...context, isPackaged: true }, () => true), undefined);
  });
});

describe('external links', () => {
  test('only plain http(s) URLs go to the system browser', () => {
    assert.equal(isSafeExternalUrl('https://example.com/docs'), true);
    assert.equal(isSafeExternalUrl('http://example.com/'), true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'https://user:pw@example.com/', 'app://omni/', 'nonsense']) {
      assert.equal(isSafeExternalUrl(url), false, url);
    }
  });
});

describe('the layering of the shell', () => {
  test('the host process imports electron for types only (a utility process has no browser APIs)', () => {
    for (const file of ['hostProcess.ts', 'messagePortMainTransport.ts']) {
      for (const entry of importsOf(join(shellDir, file)).filter((i) => i.from === 'electron')) {
        assert.equal(entry.typeOnly, true, `${file} must use import type from electron`);
      }
    }
  });

  test('the pure modules the tests load do not import electron at all', () => {
    for (const file of ['contentSecurityPolicy.ts', 'externalLinks.ts', 'hostProcessMessages.ts', 'nativeModulesDir.ts', 'rendererFiles.ts', 'rendererOrigin.ts', 'trustedFrame.ts']) {
      assert.deepEqual(importsOf(join(shellDir, file)).filter((i) => i.from === 'electron'), [], file);
    }
  });
});

describe('the Electron bundles', () => {
  test('main, preload and host process build with the runtime externals', { timeout: 60_000 }, async () => {
    const outdir = await mkdtemp(join(tmpdir(), 'omni-electron-bundle-'));
    try {
      const result = await build({
        entryPoints: {
          main: join(shellDir, 'main.ts'),
          hostProcess: join(shellDir, 'hostProcess.ts'),
          preload: join(root, 'src-preload', 'preload.ts'),
        },
        outdir,
        bundle: true,
        format: 'cjs',
        platform: 'node',
        target: ['node20'],
        external: ['better-sqlite3', 'node-pty', 'keytar', 'electron', 'bufferutil', 'utf-8-validate'],
        logLevel: 'silent',
        write: true,
      });
      assert.deepEqual(result.errors, []);
      const requires = async (name: string): Promise<string[]> =>
        [...(await readFile(join(outdir, `${name}.js`), 'utf8')).matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      // The sandboxed preload can require nothing but electron.
      assert.deepEqual([...new Set(await requires('preload'))], ['electron']);
      // The host loads natives through its loader (OMNI_NATIVE_MODULES_DIR), never with a bare require or from electron.
      const host = await requires('hostProcess');
      for (const name of ['electron', 'better-sqlite3', 'node-pty', 'keytar']) assert.ok(!host.includes(name), `hostProcess.js requires ${name}`);
      assert.ok((await requires('main')).includes('electron'));
    } finally {
      await rm(outdir, { recursive: true, force: true });
    }
  });
});
