// workspace-summary: what is in this workspace? Lists the files (three levels deep at most), counts them by kind,
// and quotes the README. Needs files.read; without it, says so and reads nothing.
import { askConsent, listFiles, newChunkId, omni_alloc, output, readFile, readInput, JsonValue } from 'omni-sdk';

export { omni_alloc };

const MAX_ENTRIES = 2000;

class Tally {
  files: i32 = 0;
  folders: i32 = 0;
  bytes: i64 = 0;
  extensions: string[] = [];
  counts: i32[] = [];
  readme: string = '';
  truncated: bool = false;

  count(name: string, size: i64): void {
    this.files++;
    this.bytes += size;
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 ? name.substring(dot) : '(none)';
    const at = this.extensions.indexOf(ext);
    if (at < 0) {
      this.extensions.push(ext);
      this.counts.push(1);
    } else {
      this.counts[at]++;
    }
  }
}

function walk(path: string, depth: i32, tally: Tally): string {
  const listing = listFiles(path);
  if (!listing.ok) return listing.code;
  const entries: JsonValue[] = listing.value.get('entries').items;
  for (let i = 0; i < entries.length; i++) {
    if (tally.files + tally.folders >= MAX_ENTRIES) {
      tally.truncated = true;
      return '';
    }
    const name = entries[i].get('name').asString();
    const full = path == '.' ? name : path + '/' + name;
    if (entries[i].get('kind').asString() == 'dir') {
      if (name == '.git' || name == 'node_modules') continue;
      tally.folders++;
      if (depth < 3) walk(full, depth + 1, tally);
    } else {
      tally.count(name, entries[i].get('size').asInt());
      if (depth == 0 && tally.readme.length == 0 && name.toLowerCase().startsWith('readme')) tally.readme = full;
    }
  }
  return '';
}

export function omni_start(ptr: usize, len: i32): void {}

export function omni_invoke(ptr: usize, len: i32): void {
  readInput(ptr, len);
  const card = newChunkId();
  output('text/markdown', '## Workspace summary\n\n', card);
  const tally = new Tally();
  let failure = walk('.', 0, tally);
  if (failure == 'capability_denied' || failure == 'capability_revoked') {
    if (askConsent('files.read', 'to list and count the files in your workspace', 600)) failure = walk('.', 0, tally);
  }
  if (failure.length > 0) {
    output('text/markdown', 'I could not read the workspace (`' + failure + '`), so nothing was read. Grant **files.read** to get a summary.\n', card);
    return;
  }
  let text = '**' + tally.files.toString() + '** files in **' + tally.folders.toString() + '** folders, ' + (tally.bytes < 1024 ? tally.bytes.toString() + ' bytes' : (tally.bytes / 1024).toString() + ' KiB') + (tally.truncated ? ' (stopped counting at ' + MAX_ENTRIES.toString() + ')' : '') + '.\n\n| kind | files |\n|---|---|\n';
  for (let i = 0; i < tally.extensions.length; i++) text += '| `' + tally.extensions[i] + '` | ' + tally.counts[i].toString() + ' |\n';
  output('text/markdown', text, card);
  if (tally.readme.length > 0) {
    const readme = readFile(tally.readme);
    if (readme.ok) {
      const lines = readme.text.split('\n');
      let quoted = '\n### ' + tally.readme + '\n\n';
      for (let i = 0; i < lines.length && i < 15; i++) quoted += '> ' + lines[i] + '\n';
      output('text/markdown', quoted, card);
    }
  }
}

export function omni_shutdown(): void {}
