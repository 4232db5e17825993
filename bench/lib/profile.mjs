// Turns a CDP CPU profile into "where the renderer's time went": self time per module of the bundle
// (esbuild's unminified output marks each module with a `// path/to/module` comment line), plus idle and GC.

/** Line (0-based) → module path, from esbuild's `// node_modules/...` / `// src-.../...` markers. */
export function moduleMap(source) {
  const markers = [];
  const lines = source.split('\n');
  for (let i = 0; i < lines.length; i++) {
    // Paths are relative to the build's working dir and may climb out of it (a symlinked node_modules).
    const m = /^\/\/ (\S*?(?:node_modules|src-[\w-]+|bench|agents)\/\S+)$/.exec(lines[i]);
    if (!m) continue;
    const path = m[1];
    const modules = path.lastIndexOf('node_modules/');
    markers.push([i, modules >= 0 ? path.slice(modules) : path.replace(/^(\.\.\/|[\w.-]+\/)*?(?=(src-[\w-]+|bench|agents)\/)/, '')]);
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
 * Summarises `profile` (Profiler.stop's result). `sources` maps script url → bundle source text. Returns total ms,
 * self ms per group (idle, GC, program, native builtins and bundle modules) and the top functions.
 */
export function summariseProfile(profile, sources) {
  const maps = new Map(Object.entries(sources).map(([url, text]) => [url, moduleMap(text)]));
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
      const module = map ? map(callFrame.lineNumber) : callFrame.url;
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
