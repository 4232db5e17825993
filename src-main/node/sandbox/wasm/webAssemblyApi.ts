/**
 * The host's tsconfig has no DOM lib, and @types/node 20 does not declare the WebAssembly global: this is the part
 * of it the sandbox uses, typed here and taken from globalThis.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

export interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number; maximum?: number }) => WasmMemory;
  RuntimeError: new (message?: string) => Error;
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
