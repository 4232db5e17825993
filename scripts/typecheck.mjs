// Typechecks each layer with its own tsconfig, so a layer cannot see what it may not import
// (the renderer has no Node types, the host and renderer cannot resolve `electron`).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  'src-preload/tsconfig.bridge.json',
  'src-preload/tsconfig.preload.json',
  'src-main/tsconfig.host.json',
  'src-main/tsconfig.electron.json',
  'src-renderer/tsconfig.json',
  'test/tsconfig.json',
].filter((p) => existsSync(p));

let failed = 0;
for (const project of projects) {
  const started = Date.now();
  const result = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--pretty'], { stdio: 'inherit' });
  const ok = result.status === 0;
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${project} (${Date.now() - started} ms)`);
}
process.exit(failed === 0 ? 0 : 1);
