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
