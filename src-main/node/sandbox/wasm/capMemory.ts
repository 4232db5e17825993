import { WASM_PAGE_BYTES } from './abi';
import type { ModuleShape } from './moduleShape';
import type { ModuleProblem } from './sandboxErrors';
import { encodeLimits32, SECTION, spliceSection, type Limits } from './wasmBinary';

export interface CappedModule {
  bytes: Uint8Array;
  /** The cap in 64 KiB pages. */
  maxPages: number;
  /** When the module imports omni.memory: the memory the child must create for it. */
  memoryImport: { initialPages: number; maximumPages: number } | null;
}

/**
 * Rewrites every memory's maximum in the binary, defined or imported, to at most `maxBytes` (rounded down to whole
 * pages), so `memory.grow` fails at the quota instead of growing towards 4 GiB. A module that already needs more
 * than the quota to start, or uses 64-bit memory, is refused.
 */
export function capMemory(bytes: Uint8Array, shape: ModuleShape, maxBytes: number): { module?: CappedModule; problems: ModuleProblem[] } {
  const maxPages = Math.floor(maxBytes / WASM_PAGE_BYTES);
  const problems: ModuleProblem[] = [];
  const newLimits = (limits: Limits, subject: string): number[] | null => {
    if ((limits.flags & 0x04) !== 0) {
      problems.push({ code: 'memory_quota', subject, message: `${subject} is a 64-bit memory, which the sandbox does not run` });
      return null;
    }
    if (limits.min > BigInt(maxPages)) {
      problems.push({
        code: 'memory_quota',
        subject,
        message: `${subject} starts at ${limits.min} pages (${Number(limits.min) * WASM_PAGE_BYTES} bytes), more than the manifest's memory quota of ${maxBytes} bytes (raise resources.mem)`,
      });
      return null;
    }
    const max = limits.max === null ? maxPages : Math.min(Number(limits.max), maxPages);
    return encodeLimits32(limits.flags, Number(limits.min), max);
  };

  let out = bytes;
  let memoryImport: CappedModule['memoryImport'] = null;
  // Later sections first, so rewriting one does not move the offsets read for an earlier one.
  const memorySection = shape.sections.find((s) => s.id === SECTION.memory);
  if (memorySection && shape.memories.length > 0) {
    const edits = shape.memories.flatMap((limits, i) => {
      const encoded = newLimits(limits, `memory ${i}`);
      return encoded ? [{ start: limits.start, end: limits.end, bytes: encoded }] : [];
    });
    out = spliceSection(out, memorySection, edits);
  }
  const importSection = shape.sections.find((s) => s.id === SECTION.import);
  const memoryImports = shape.imports.filter((i) => i.kind === 'memory');
  if (importSection && memoryImports.length > 0) {
    const edits = memoryImports.flatMap((imp) => {
      const encoded = newLimits(imp.limits, `${imp.module}.${imp.name}`);
      if (!encoded) return [];
      memoryImport = { initialPages: Number(imp.limits.min), maximumPages: imp.limits.max === null ? maxPages : Math.min(Number(imp.limits.max), maxPages) };
      return [{ start: imp.limits.start, end: imp.limits.end, bytes: encoded }];
    });
    out = spliceSection(out, importSection, edits);
  }
  if (problems.length > 0) return { problems };
  return { module: { bytes: out, maxPages, memoryImport }, problems };
}
