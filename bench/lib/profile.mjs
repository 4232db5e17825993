// Turns a CDP CPU profile into "where the renderer's time went": self time per module of the bundle, plus idle and
// GC. Modules are found from esbuild's `// path/to/module` comment lines in an unminified bundle, or from the source
// map of a minified one (the production build), which has no such lines.
import { sourceAt } from './sourceMap.mjs';

/** A path as a bundle names it, relative to wherever it was built: from its node_modules/ or its top folder on. */
function modulePath(path) {
  const modules = path.lastIndexOf('node_modules/');
  return modules >= 0 ? path.slice(modules) : path.replace(/^(\.\.\/|[\w.-]+\/)*?(?=(src-[\w-]+|bench|agents)\/)/, '');
}

/**
 * (line, column) (0-based) → module path, from the bundle's source map when given, else from esbuild's
 * `// node_modules/...` / `// src-.../...` marker lines in its text.
 */
export function moduleMap(source, map) {
  if (map) {
    const at = sourceAt(map);
    return (line, column) => {
      const path = at(line, column);
      return path === undefined ? '(bundle prelude)' : modulePath(path);
    };
  }
  const markers = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // Paths are relative to the build's working dir and may climb out of it (a symlinked node_modules).
    const m = /^\/\/ (\S*?(?:node_modules|src-[\w-]+|bench|agents)\/\S+)$/.exec(lines[i]);
    if (m) markers.push([i, modulePath(m[1])]);
  }
  return (line) => {
    let lo = 0;
    let hi = markers.length - 1;
    let found = '(bundle prelude)';
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (markers[mid][0] <= line) {
        found = markers[mid][1];
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
}

/** The bundle at `url` with its source map when the server has one (`<url>.map`), for summariseProfile. */
export async function fetchBundle(url) {
  const text = await fetch(url).then((r) => r.text());
  const map = await fetch(`${url}.map`)
    .then((r) => (r.ok ? r.json() : undefined))
    .catch(() => undefined);
  return { text, map };
}

/** node_modules/@xterm/xterm/lib/xterm.mjs → "@xterm/xterm"; src-preload/rpc/rpcClient.ts → "src-preload/rpc". */
export function moduleGroup(path) {
  const parts = path.split('/');
  if (parts[0] === 'node_modules') {
    const i = parts.lastIndexOf('node_modules');
    return parts[i + 1].startsWith('@') ? `${parts[i + 1]}/${parts[i + 2]}` : parts[i + 1];
  }
  if (parts[0] === '(bundle prelude)') return path;
  return parts.length > 2 ? `${parts[0]}/${parts[1]}` : parts[0];
}

/**
 * Summarises `profile` (Profiler.stop's result). `sources` maps script url → the bundle's source text, or
 * `{ text, map }` with its parsed source map (fetchBundle). Returns total ms, self ms per group (idle, GC, program,
 * native builtins and bundle modules) and the top functions.
 */
export function summariseProfile(profile, sources) {
  const maps = new Map(Object.entries(sources).map(([url, source]) => [url, typeof source === 'string' ? moduleMap(source) : moduleMap(source.text, source.map)]));
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const groups = {};
  const functions = new Map();
  let totalUs = 0;
  for (const [id, us] of selfUs) {
    const { callFrame } = byId.get(id);
    totalUs += us;
    let group;
    let where;
    if (callFrame.functionName.startsWith('(') && !callFrame.url) {
      group = callFrame.functionName; // (idle), (garbage collector), (program), (root)
      where = group;
    } else if (!callFrame.url) {
      group = '(native builtins)';
      where = `native ${callFrame.functionName || '(anonymous)'}`;
    } else {
      const map = [...maps.entries()].find(([url]) => callFrame.url.split('?')[0].endsWith(url))?.[1];
      const module = map ? map(callFrame.lineNumber, callFrame.columnNumber) : callFrame.url;
      group = map ? moduleGroup(module) : callFrame.url;
      where = `${callFrame.functionName || '(anonymous)'}  ${module}`;
    }
    groups[group] = (groups[group] ?? 0) + us / 1000;
    functions.set(where, (functions.get(where) ?? 0) + us / 1000);
  }
  const top = [...functions.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  const sortedGroups = Object.fromEntries(Object.entries(groups).sort((a, b) => b[1] - a[1]));
  return { totalMs: totalUs / 1000, groups: sortedGroups, top };
}
