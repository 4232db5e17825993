import { capMemory, type CappedModule } from './capMemory';
import { checkImports } from './checkImports';
import { readModuleShape } from './moduleShape';
import { ModuleRefusedError } from './sandboxErrors';
import { WasmFormatError } from './wasmBinary';
import { wasm } from './webAssemblyApi';

/**
 * Everything decided about a module before any of it runs, in the host: its imports against the ABI and the
 * manifest's capabilities, its memory capped at the quota, and that it compiles. Throws ModuleRefusedError
 * listing every problem.
 */
export function prepareModule(bytes: Uint8Array, declaredCapabilities: Iterable<string>, memBytes: number): CappedModule {
  let shape;
  try {
    shape = readModuleShape(bytes);
  } catch (error) {
    if (error instanceof WasmFormatError) throw new ModuleRefusedError([{ code: 'invalid_module', subject: 'module', message: error.message }]);
    throw error;
  }
  const problems = checkImports(shape, new Set(declaredCapabilities));
  const capped = capMemory(bytes, shape, memBytes);
  problems.push(...capped.problems);
  if (problems.length > 0 || !capped.module) throw new ModuleRefusedError(problems);
  if (!wasm.validate(capped.module.bytes)) {
    throw new ModuleRefusedError([{ code: 'invalid_module', subject: 'module', message: 'it does not validate as WebAssembly (compile it again; the toolchain may be newer than this runtime)' }]);
  }
  return capped.module;
}
