// Typechecks each layer with its own tsconfig, so a layer cannot see what it may not import
// (the renderer has no Node types, the host and renderer cannot resolve `electron`). Two projects at once (the
// machines this runs on have two cores or more); each one's output is printed whole when it ends.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const projects = [
  // The largest first, so the two lanes end close together.
  'test/tsconfig.json',
  'src-main/tsconfig.host.json',
  'src-renderer/tsconfig.json',
  'src-main/tsconfig.electron.json',
  'src-preload/tsconfig.preload.json',
  'src-preload/tsconfig.bridge.json',
].filter((p) => existsSync(p));

function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['node_modules/typescript/bin/tsc', '-p', project, '--pretty'], { stdio: ['ignore', 'pipe', 'pipe'] });
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

const queue = [...projects];
let failed = 0;
async function lane() {
  for (let project = queue.shift(); project; project = queue.shift()) if (!(await check(project))) failed++;
}
await Promise.all([lane(), lane()]);
process.exitCode = failed === 0 ? 0 : 1;
