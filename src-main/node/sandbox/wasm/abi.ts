/**
 * The WASM guest ABI, version 1 (docs/agent-runtime.md): what a guest may import, and which capability each
 * `omni.*` import needs. Anything not listed here refuses the module before it runs.
 */
export const OMNI_MODULE = 'omni';
export const WASI_MODULE = 'wasi_snapshot_preview1';

/** Every `omni.*` host function takes (req ptr, req len) and returns an i64 packing (ptr << 32) | len. */
export const OMNI_FUNCTIONS: Readonly<Record<string, string | null>> = {
  output: null,
  artifact: null,
  consent: null,
  files_read: 'files.read',
  files_list: 'files.read',
  files_write: 'files.write',
  files_create: 'files.write',
  net_fetch: 'network',
  shell: 'process.exec',
  kv_get: 'memory',
  kv_set: 'memory',
  scratch_get: null,
  scratch_set: null,
  state: null,
};

/** A guest may import its memory instead of defining it: `omni.memory`, which the child creates with the quota as maximum. */
export const OMNI_MEMORY_IMPORT = 'memory';

/** The WASI preview1 functions a guest may import, with their signatures (i32 = 0x7f, i64 = 0x7e). */
export const WASI_FUNCTIONS: Readonly<Record<string, { params: string; results: string }>> = {
  fd_write: { params: 'i32 i32 i32 i32', results: 'i32' },
  clock_time_get: { params: 'i32 i64 i32', results: 'i32' },
  random_get: { params: 'i32 i32', results: 'i32' },
  proc_exit: { params: 'i32', results: '' },
  environ_sizes_get: { params: 'i32 i32', results: 'i32' },
  environ_get: { params: 'i32 i32', results: 'i32' },
  args_sizes_get: { params: 'i32 i32', results: 'i32' },
  args_get: { params: 'i32 i32', results: 'i32' },
};

export const OMNI_FUNCTION_SIGNATURE = { params: 'i32 i32', results: 'i64' } as const;

/** Exports the host calls. `omni_start` and `omni_shutdown` may be left out by a guest that needs neither. */
export const REQUIRED_EXPORTS = { omni_alloc: 'func', omni_invoke: 'func' } as const;
export const OPTIONAL_EXPORTS = { omni_start: 'func', omni_shutdown: 'func' } as const;

/** The error codes a host function answers with (`{ ok: false, error: { code, message, hint } }`). */
export type HostCallErrorCode =
  | 'capability_denied'
  | 'capability_revoked'
  | 'not_declared'
  | 'outside_root'
  | 'not_found'
  /** files_create: something is already at the path; nothing was written. */
  | 'exists'
  | 'too_large'
  | 'blocked_address'
  | 'timeout'
  | 'bad_request';

export const WASM_PAGE_BYTES = 65_536;
