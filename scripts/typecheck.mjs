// Typechecks each layer with its own tsconfig, so a layer cannot see what it may not import
// (the renderer has no Node types, the host and renderer cannot resolve `electron`). Each one's output is printed
// whole when it ends.
//
// The host, the Electron shell and the renderer are composite projects (`tsc -b`): each is checked once, and the
// projects that import it (the Electron shell imports the host; the tests import all three) read its declarations
// from .cache/tsc/ instead of checking its sources again. Unchanged projects are skipped on the next run.
// Two lanes (the machines this runs on have two cores or more), then the tests, which need both.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const lanes = [
  // The host, then the Electron shell that references it.
  [['-b', 'src-main/tsconfig.electron.json']],
  [['-b', 'src-renderer/tsconfig.json'], ['-p', 'src-preload/tsconfig.preload.json'], ['-p', 'src-preload/tsconfig.bridge.json']],
].map((lane) => lane.filter(([, project]) => existsSync(project)));
const last = [['-b', 'test/tsconfig.json']].filter(([, project]) => existsSync(project));

function check([mode, project]) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', mode, project, '--pretty'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      process.stdout.write(output);
      console.log(`${code === 0 ? 'ok  ' : 'FAIL'} ${project} (${Date.now() - started} ms)`);
      resolve(code === 0);
    });
  });
}

let failed = 0;
async function run(lane) {
  for (const project of lane) if (!(await check(project))) failed++;
}
await Promise.all(lanes.map(run));
await run(last);
process.exitCode = failed === 0 ? 0 : 1;
