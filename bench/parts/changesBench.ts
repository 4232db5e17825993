// The changes area's figures (src-main/node/changes): a snapshot of a workspace into its shadow git store, next to
// the raw git commands that do the same in the same process and run. Run (bundled) by bench/parts/changes.mjs;
// prints one JSON object on stdout.
//
//   snapshot    ShadowStore.snapshot() of a 10,000-file workspace (nested folders, mostly small text files, a
//               .gitignore'd build folder) after 10 files changed (8 edited, 1 added, 1 deleted), against the raw
//               `git add -A && git write-tree` into a scratch index of the same tree (a bare scratch repository with
//               the same environment: no system or global config). Both indexes are primed with the whole tree
//               first, so both sides measure an incremental snapshot. Rounds alternate which side goes first.
//               Goals (the issue's): p50 ≤ 150 ms and ratio (raw / ours) ≥ 0.8.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ShadowStore } from '../../src-main/node/changes/shadowStore';

const FILES = Number(process.env.BENCH_CHANGES_FILES ?? 10_000);
const ROUNDS = Number(process.env.BENCH_CHANGES_ROUNDS ?? 21);
const CHANGED = 10;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** A text file of 20–60 lines, as source code roughly looks. */
function sourceText(seed: number, round = 0): string {
  const lines: string[] = [];
  const count = 20 + (seed % 41);
  for (let i = 0; i < count; i++) lines.push(`export const value${i} = ${seed * 31 + i + round}; // line ${i} of file ${seed}`);
  return lines.join('\n') + '\n';
}

/** FILES files in 3 levels of folders (10 × 10 × FILES/100), and an ignored build folder git must not walk into. */
function makeWorkspace(root: string): string[] {
  const files: string[] = [];
  const perLeaf = Math.ceil(FILES / 100);
  for (let a = 0; a < 10 && files.length < FILES; a++) {
    for (let b = 0; b < 10 && files.length < FILES; b++) {
      const dir = join(root, `pkg${a}`, `src${b}`);
      mkdirSync(dir, { recursive: true });
      for (let c = 0; c < perLeaf && files.length < FILES; c++) {
        const rel = `pkg${a}/src${b}/module${c}.ts`;
        writeFileSync(join(root, rel), sourceText(files.length));
        files.push(rel);
      }
    }
  }
  writeFileSync(join(root, '.gitignore'), 'build/\nnode_modules/\n');
  mkdirSync(join(root, 'build'), { recursive: true });
  for (let i = 0; i < 200; i++) writeFileSync(join(root, 'build', `out${i}.js`), sourceText(i));
  return files;
}

function rawGitEnv(gitDir: string, workspace: string, index: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GIT_')) env[key] = value;
  return { ...env, GIT_DIR: gitDir, GIT_WORK_TREE: workspace, GIT_INDEX_FILE: index, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', LC_ALL: 'C' };
}

function rawSnapshot(env: NodeJS.ProcessEnv, cwd: string): string {
  const add = spawnSync('git', ['add', '-A'], { env, cwd });
  if (add.status !== 0) throw new Error(`git add -A failed: ${add.stderr}`);
  const tree = spawnSync('git', ['write-tree'], { env, cwd, encoding: 'utf8' });
  if (tree.status !== 0) throw new Error(`git write-tree failed: ${tree.stderr}`);
  return tree.stdout.trim();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'omni-bench-changes-'));
  try {
    const workspace = join(dir, 'workspace');
    mkdirSync(workspace);
    const files = makeWorkspace(workspace);
    const home = join(dir, 'home');
    const store = await ShadowStore.open(home, workspace);
    const scratch = join(dir, 'scratch.git');
    spawnSync('git', ['init', '-q', '--bare', scratch]);
    const env = rawGitEnv(scratch, workspace, join(dir, 'scratch-index'));

    const firstStarted = performance.now();
    const first = await store.snapshot();
    const firstMs = performance.now() - firstStarted;
    const rawFirstStarted = performance.now();
    const rawFirst = rawSnapshot(env, workspace);
    const rawFirstMs = performance.now() - rawFirstStarted;
    if (rawFirst !== first.tree) throw new Error(`the snapshot's tree ${first.tree} is not git's ${rawFirst}`);

    const ours: number[] = [];
    const raw: number[] = [];
    let added: string | null = null;
    for (let round = 1; round <= ROUNDS; round++) {
      // 10 changed files: 8 edited, 1 added (last round's is deleted), and 1 deleted or (the first round) edited.
      for (let i = 0; i < CHANGED - 2; i++) {
        const rel = files[(round * 997 + i * 131) % files.length];
        writeFileSync(join(workspace, rel), sourceText(i, round));
      }
      if (added) unlinkSync(join(workspace, added));
      else writeFileSync(join(workspace, files[0]), sourceText(0, round));
      added = `pkg${round % 10}/src${round % 7}/added${round}.ts`;
      writeFileSync(join(workspace, added), sourceText(round));
      const measureOurs = async () => {
        const started = performance.now();
        const result = await store.snapshot();
        ours.push(performance.now() - started);
        return result.tree;
      };
      const measureRaw = () => {
        const started = performance.now();
        const tree = rawSnapshot(env, workspace);
        raw.push(performance.now() - started);
        return tree;
      };
      let ourTree: string;
      let rawTree: string;
      if (round % 2 === 0) {
        ourTree = await measureOurs();
        rawTree = measureRaw();
      } else {
        rawTree = measureRaw();
        ourTree = await measureOurs();
      }
      if (ourTree !== rawTree) throw new Error(`round ${round}: the snapshot's tree ${ourTree} is not git's ${rawTree}`);
    }
    const p50 = percentile(ours, 0.5);
    const rawP50 = percentile(raw, 0.5);
    console.log(
      JSON.stringify({
        files: FILES,
        changed: CHANGED,
        rounds: ROUNDS,
        first: { ms: firstMs, rawMs: rawFirstMs },
        snapshot: { p50Ms: p50, p90Ms: percentile(ours, 0.9), rawP50Ms: rawP50, rawP90Ms: percentile(raw, 0.9), ratio: rawP50 / p50 },
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
