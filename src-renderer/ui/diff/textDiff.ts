/**
 * A unified diff of two texts, for edits that arrive as the file's old and new content (an ACP tool call's `diff`
 * item) rather than as a patch. Lines are matched by a longest common subsequence after the common start and end
 * are set aside; past MAX_CELLS of table the middle is shown as removed then added, so a huge rewrite costs time
 * linear in its size instead of freezing the page.
 */
const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; text: string };

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** The edit script of the middle part: an LCS table when small enough, else everything removed then added. */
function middleOps(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) return [...a.map((text): Op => ({ kind: '-', text })), ...b.map((text): Op => ({ kind: '+', text }))];
  // lcs[i * (m + 1) + j]: the LCS length of a[i..] and b[j..]. Bounded by min(n, m) ≤ 2000 here, so 16 bits hold it.
  const width = m + 1;
  const lcs = new Uint16Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', text: a[i] });
      i++;
      j++;
    } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) ops.push({ kind: '-', text: a[i++] });
    else ops.push({ kind: '+', text: b[j++] });
  }
  while (i < n) ops.push({ kind: '-', text: a[i++] });
  while (j < m) ops.push({ kind: '+', text: b[j++] });
  return ops;
}

function editScript(a: readonly string[], b: readonly string[]): Op[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return [
    ...a.slice(0, start).map((text): Op => ({ kind: ' ', text })),
    ...middleOps(a.slice(start, a.length - end), b.slice(start, b.length - end)),
    ...a.slice(a.length - end).map((text): Op => ({ kind: ' ', text })),
  ];
}

/**
 * The unified diff (headers, hunks with three lines of context) turning `oldText` into `newText` for `path`;
 * `oldText` null means a new file. Identical texts give the headers only.
 */
export function unifiedDiff(path: string, oldText: string | null, newText: string): string[] {
  const ops = editScript(splitLines(oldText ?? ''), splitLines(newText));
  // git's a/ and b/ prefixes for a relative path; an absolute one (what ACP agents send) is clearer as it is.
  const [oldName, newName] = path.startsWith('/') ? [path, path] : [`a/${path}`, `b/${path}`];
  const out = [oldText === null ? '--- /dev/null' : `--- ${oldName}`, `+++ ${newName}`];
  // Line numbers (1-based) of each op in the old and the new text.
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let o = 1;
  let n = 1;
  for (const op of ops) {
    oldAt.push(o);
    newAt.push(n);
    if (op.kind !== '+') o++;
    if (op.kind !== '-') n++;
  }
  let k = 0;
  while (k < ops.length) {
    if (ops[k].kind === ' ') {
      k++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change closer than 2×CONTEXT.
    const from = Math.max(0, k - CONTEXT);
    let to = k;
    let last = k;
    while (to < ops.length && to - last <= 2 * CONTEXT) {
      if (ops[to].kind !== ' ') last = to;
      to++;
    }
    const end = Math.min(ops.length, last + 1 + CONTEXT);
    const hunk = ops.slice(from, end);
    const oldCount = hunk.filter((op) => op.kind !== '+').length;
    const newCount = hunk.filter((op) => op.kind !== '-').length;
    const oldStart = oldCount === 0 ? oldAt[from] - 1 : oldAt[from];
    const newStart = newCount === 0 ? newAt[from] - 1 : newAt[from];
    out.push(`@@ -${oldStart},${oldCount} +${newStart},${newCount} @@`);
    for (const op of hunk) out.push(`${op.kind}${op.text}`);
    k = end;
  }
  return out;
}
