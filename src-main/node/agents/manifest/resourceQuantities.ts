/**
 * Kubernetes-style quantities for `resources.cpu` and `resources.mem`, normalised to millicores and bytes.
 * Each parser returns the number or a sentence saying what is wrong, for the validator's "found …" and "fix".
 */

export type Parsed = { ok: true; value: number } | { ok: false; problem: string; suggestion?: string };

const DECIMAL = /^(\d+(?:\.\d+)?|\.\d+)$/;

/** "500m" → 500, "1" → 1000, "0.5" → 500, and TOML numbers 1 / 0.5 the same. At least 1m, whole millicores. */
export function parseCpu(value: string | number): Parsed {
  const text = typeof value === 'number' ? String(value) : value.trim();
  let millicores: number;
  if (text.endsWith('m')) {
    const number = text.slice(0, -1);
    if (!/^\d+$/.test(number)) return { ok: false, problem: 'millicores must be a whole number before "m"', suggestion: '"500m"' };
    millicores = Number(number);
  } else if (DECIMAL.test(text)) {
    const exact = Number(text) * 1000;
    millicores = Math.round(exact);
    // Float noise (0.3 * 1000 = 300.00000000000006) is not a finer quantity; a real fraction of a millicore is.
    if (Math.abs(exact - millicores) > 1e-6) return { ok: false, problem: 'finer than one millicore', suggestion: `"${Math.max(1, millicores)}m"` };
  } else {
    return { ok: false, problem: 'not a CPU quantity', suggestion: '"500m" (half a core) or "1" (one core)' };
  }
  if (millicores < 1) return { ok: false, problem: 'zero CPU would never let the agent run', suggestion: '"100m" or more' };
  if (!Number.isSafeInteger(millicores)) return { ok: false, problem: 'too large', suggestion: '"4" (four cores)' };
  return { ok: true, value: millicores };
}

const BINARY: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL_SUFFIX: Record<string, number> = { k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };
/** Smallest memory an agent can be given: one WebAssembly page. */
export const MIN_MEMORY_BYTES = 64 * 1024;

/** "512Mi" → 536870912, "1G" → 1e9, "1048576" or 1048576 → bytes. Whole bytes, at least one WASM page (64Ki). */
export function parseMemory(value: string | number): Parsed {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = /^(\d+(?:\.\d+)?|\.\d+)([A-Za-z]*)$/.exec(text);
  if (!match) return { ok: false, problem: 'not a memory quantity', suggestion: '"512Mi" or "1Gi"' };
  const [, number, suffix] = match;
  const multiplier = suffix === '' ? 1 : (BINARY[suffix] ?? DECIMAL_SUFFIX[suffix]);
  if (multiplier === undefined) {
    return { ok: false, problem: `unknown unit "${suffix}" (units: Ki Mi Gi Ti, or k M G T)`, suggestion: suggestUnit(number, suffix) };
  }
  const bytes = Number(number) * multiplier;
  if (!Number.isInteger(bytes)) return { ok: false, problem: 'not a whole number of bytes', suggestion: `"${Math.ceil(bytes)}"` };
  if (!Number.isSafeInteger(bytes)) return { ok: false, problem: 'too large', suggestion: '"4Gi"' };
  if (bytes < MIN_MEMORY_BYTES) return { ok: false, problem: `less than one 64Ki WebAssembly page`, suggestion: '"64Ki" or more' };
  return { ok: true, value: bytes };
}

/** "512MB" / "512mb" / "512MiB" → "512Mi": the usual slips. */
function suggestUnit(number: string, suffix: string): string {
  const letter = suffix[0]?.toUpperCase();
  const binary = { K: 'Ki', M: 'Mi', G: 'Gi', T: 'Ti' }[letter ?? ''];
  return binary ? `"${number}${binary}"` : '"512Mi"';
}

/** 536870912 → "512Mi": the shortest exact binary form, for messages and migrations. */
export function formatMemory(bytes: number): string {
  for (const [suffix, size] of Object.entries(BINARY).reverse()) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${suffix}`;
  }
  return String(bytes);
}
