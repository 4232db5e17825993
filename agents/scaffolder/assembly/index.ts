// scaffolder: starts a small TypeScript library in the workspace. The prompt names it ("scaffold mylib", or just
// "mylib"). Each file is created only if nothing is at its path yet (omni.files_create: the host refuses to replace
// anything and answers `exists`, so files that exist are left alone without reading them first) and shown as a diff
// card once written. Needs files.write for the new folder; without it (denied, or revoked half way) it shows the
// remaining files as code for the user to copy, and writes nothing more.
import { askConsentToWrite, createFile, newChunkId, omni_alloc, output, readInput } from 'omni-sdk';

export { omni_alloc };

function libraryName(prompt: string): string {
  const words = prompt.trim().split(' ');
  let name = words.length > 0 ? words[words.length - 1] : '';
  let clean = '';
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c == 45 || c == 95;
    const upper = c >= 65 && c <= 90;
    if (ok) clean += String.fromCharCode(c);
    else if (upper) clean += String.fromCharCode(c + 32);
  }
  return clean.length > 0 ? clean : 'my-library';
}

function diffOf(path: string, text: string): string {
  const lines = text.split('\n');
  let diff = '--- /dev/null\n+++ b/' + path + '\n@@ -0,0 +1,' + (lines.length - 1).toString() + ' @@\n';
  for (let i = 0; i < lines.length - 1; i++) diff += '+' + lines[i] + '\n';
  return diff;
}

export function omni_start(ptr: usize, len: i32): void {}

export function omni_invoke(ptr: usize, len: i32): void {
  const name = libraryName(readInput(ptr, len).prompt);
  const summary = newChunkId();
  output('text/markdown', '## Scaffolding `' + name + '`\n\n', summary);
  const paths: string[] = [name + '/package.json', name + '/tsconfig.json', name + '/src/index.ts', name + '/README.md'];
  const texts: string[] = [
    '{\n  "name": "' + name + '",\n  "version": "0.1.0",\n  "type": "module",\n  "main": "dist/index.js",\n  "scripts": { "build": "tsc" }\n}\n',
    '{\n  "compilerOptions": { "strict": true, "target": "ES2022", "module": "NodeNext", "outDir": "dist" },\n  "include": ["src"]\n}\n',
    '/** ' + name + ': say hello. */\nexport function hello(who: string): string {\n  return `Hello, ${who}!`;\n}\n',
    '# ' + name + '\n\nScaffolded by the Omniscient Shell scaffolder.\n',
  ];
  let allowed = true;
  let asked = false;
  for (let i = 0; i < paths.length; i++) {
    if (allowed) {
      let written = createFile(paths[i], texts[i]);
      let shown = false;
      if (!written.ok && !asked && (written.code == 'capability_denied' || written.code == 'capability_revoked')) {
        asked = true;
        // The diff goes up first, so the user sees what would be written while deciding.
        output('text/x-diff', diffOf(paths[i], texts[i]), newChunkId());
        shown = true;
        if (askConsentToWrite('to create the ' + name + ' library folder in your workspace', 600, paths[i], texts[i], name + '/**')) written = createFile(paths[i], texts[i]);
      }
      if (written.ok) {
        if (!shown) output('text/x-diff', diffOf(paths[i], texts[i]), newChunkId());
        output('text/markdown', '- wrote `' + paths[i] + '`\n', summary);
        continue;
      }
      if (written.code == 'exists') {
        output('text/markdown', '- `' + paths[i] + '` exists already: left as it is\n', summary);
        continue;
      }
      allowed = false;
      output('text/markdown', '\n**Not allowed to write files** (`' + written.code + '`). Here is the rest to copy yourself:\n', summary);
    }
    output('text/x-code;lang=' + (paths[i].endsWith('.ts') ? 'ts' : paths[i].endsWith('.json') ? 'json' : 'markdown'), '// ' + paths[i] + '\n' + texts[i], newChunkId());
  }
  output('text/markdown', allowed ? '\nDone: `cd ' + name + ' && npm install && npm run build`.\n' : '\nNothing more was written.\n', summary);
}

export function omni_shutdown(): void {}
