import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { ESLint } from 'eslint';
import ts from 'typescript';

const root = resolve(__dirname, '..');

/** Typechecks `code` as if it were a file at `path` in the layer whose tsconfig is `project`; returns the errors. */
function typecheckAs(project: string, path: string, code: string): string[] {
  const configFile = join(root, project);
  const parsed = ts.getParsedCommandLineOfConfigFile(configFile, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const probe = join(root, path);
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => (resolve(name) === probe ? ts.createSourceFile(name, code, lang) : read(name, lang, ...rest));
  host.fileExists = ((exists) => (name: string) => resolve(name) === probe || exists(name))(host.fileExists.bind(host));
  const program = ts.createProgram({ rootNames: [probe], options: parsed.options, host });
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(probe))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

async function lintAs(path: string, code: string): Promise<string[]> {
  const [result] = await new ESLint({ cwd: root }).lintText(code, { filePath: join(root, path) });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const cases = [
  {
    layer: 'renderer',
    project: 'src-renderer/tsconfig.json',
    path: 'src-renderer/features/layerProbe.ts',
    allowed: "import { create } from 'zustand';\nexport const s = create(() => ({ title: document.title }));",
    forbidden: [
      "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;",
      "import { ipcRenderer } from 'electron';\nexport const x = ipcRenderer;",
    ],
  },
  {
    layer: 'host',
    project: 'src-main/tsconfig.host.json',
    path: 'src-main/node/layerProbe.ts',
    allowed: "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;",
    forbidden: ["import { app } from 'electron';\nexport const x = app;"],
  },
  {
    layer: 'bridge',
    project: 'src-preload/tsconfig.bridge.json',
    path: 'src-preload/rpc/layerProbe.ts',
    allowed: "import { z } from 'zod';\nexport const x = z.string();",
    forbidden: ["import { readFileSync } from 'node:fs';\nexport const x = readFileSync;"],
  },
];

for (const c of cases) {
  test(`${c.layer}: allowed imports pass typecheck and lint`, async () => {
    assert.deepEqual(typecheckAs(c.project, c.path, c.allowed), []);
    assert.deepEqual(await lintAs(c.path, c.allowed), []);
  });
  test(`${c.layer}: forbidden imports fail both typecheck and lint`, async () => {
    for (const code of c.forbidden) {
      assert.notDeepEqual(typecheckAs(c.project, c.path, code), [], `typecheck should refuse: ${code}`);
      const lint = await lintAs(c.path, code);
      assert.ok(lint.some((m) => m.includes('DESIGN.md')), `lint should refuse: ${code}`);
    }
  });
}

test('host: DOM globals do not exist in the host layer', () => {
  const errors = typecheckAs('src-main/tsconfig.host.json', 'src-main/node/layerProbe.ts', 'export const t = document.title;');
  assert.ok(errors.some((e) => e.includes("Cannot find name 'document'")), errors.join('\n'));
});

test('renderer: Node globals do not exist in the renderer layer', () => {
  const errors = typecheckAs('src-renderer/tsconfig.json', 'src-renderer/features/layerProbe.ts', 'export const e = process.env;');
  assert.ok(errors.some((e) => e.includes("Cannot find name 'process'")), errors.join('\n'));
});

// The renderer's own layers (DESIGN.md, Layout): a feature imports ui/ and the bridge, never another feature's
// internals nor app/; ui/ is shared and imports no feature. Lint alone proves this (one tsconfig covers the renderer).
test('renderer features: own folder, ui/ and the bridge pass lint', async () => {
  const code = [
    "import { useConnection } from '../../bridge/connectionStore';",
    "import { XtermScreen } from '../../ui/screen/xtermScreen';",
    "import { useNow } from '../../ui/useNow';",
    "import { formatBytes } from './runFormat';",
    'export const x = [useConnection, XtermScreen, useNow, formatBytes];',
  ].join('\n');
  assert.deepEqual(await lintAs('src-renderer/features/runs/layerProbe.ts', code), []);
});

test('renderer features: importing another feature fails lint and names both features', async () => {
  for (const from of ['../terminals/terminalsStore', '../terminals', '../../features/terminals/terminalsStore']) {
    const lint = await lintAs('src-renderer/features/runs/layerProbe.ts', `import { useTerminals } from '${from}';\nexport const x = useTerminals;`);
    assert.equal(lint.length, 1, `lint should refuse ${from}`);
    assert.match(lint[0], /feature runs may not import the feature terminals: move what both use to src-renderer\/ui\//);
  }
});

test('renderer features: importing app/ fails lint', async () => {
  const lint = await lintAs('src-renderer/features/goal/layerProbe.ts', "import { SessionView } from '../../app/SessionView';\nexport const x = SessionView;");
  assert.ok(lint.some((m) => m.includes('may not import src-renderer/app')), lint.join('\n'));
});

test('renderer ui/: importing a feature or app/ fails lint', async () => {
  for (const [path, from] of [
    ['src-renderer/ui/layerProbe.ts', '../features/terminals/terminalsStore'],
    ['src-renderer/ui/screen/layerProbe.ts', '../../features/terminals/terminalsStore'],
  ]) {
    const lint = await lintAs(path, `import { useTerminals } from '${from}';\nexport const x = useTerminals;`);
    assert.ok(lint.some((m) => m.includes('src-renderer/ui is the shared layer: it may not import a feature')), `${path}: ${from}: ${lint.join('\n')}`);
  }
  const app = await lintAs('src-renderer/ui/layerProbe.ts', "import { SessionView } from '../app/SessionView';\nexport const x = SessionView;");
  assert.ok(app.some((m) => m.includes('may not import src-renderer/app')), app.join('\n'));
});

test('renderer: app/ composes features and passes lint', async () => {
  const code = "import { SessionRuns } from '../features/runs/SessionRuns';\nimport { useNow } from '../ui/useNow';\nexport const x = [SessionRuns, useNow];";
  assert.deepEqual(await lintAs('src-renderer/app/layerProbe.ts', code), []);
});

// One error vocabulary: host domain code throws DomainErrors; only the handler edge imports the wire error type.
test('host: domain code importing RpcError fails lint; the handler edge and the rest of the contract pass', async () => {
  for (const from of ['../../../src-preload/contract', '../../../src-preload/contract/errors']) {
    const lint = await lintAs('src-main/node/exec/layerProbe.ts', `import { RpcError } from '${from}';\nexport const x = RpcError;`);
    assert.ok(lint.some((m) => m.includes('throws a DomainError with a kind')), `${from}: ${lint.join('\n')}`);
  }
  assert.deepEqual(await lintAs('src-main/node/exec/layerProbe.ts', "import { type Session } from '../../../src-preload/contract';\nexport type X = Session;"), []);
  assert.deepEqual(await lintAs('src-main/node/handlerErrors.ts', "import { RpcError } from '../../src-preload/contract/errors';\nexport const x = RpcError;"), []);
});
