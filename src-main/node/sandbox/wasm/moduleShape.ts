import { ByteReader, readLimits, readSections, SECTION, WasmFormatError, type Limits, type Section } from './wasmBinary';

const VALUE_TYPES: Record<number, string> = { 0x7f: 'i32', 0x7e: 'i64', 0x7d: 'f32', 0x7c: 'f64', 0x7b: 'v128', 0x70: 'funcref', 0x6f: 'externref' };

export interface Signature {
  params: string;
  results: string;
}

export type ImportDesc =
  | { kind: 'func'; signature: Signature | null }
  | { kind: 'memory'; limits: Limits }
  | { kind: 'table' | 'global' | 'tag' };

export type ModuleImport = { module: string; name: string } & ImportDesc;

export interface ModuleShape {
  sections: Section[];
  imports: ModuleImport[];
  /** Memories the module defines itself. */
  memories: Limits[];
  exports: { name: string; kind: 'func' | 'table' | 'memory' | 'global' | 'tag' }[];
}

function valueType(reader: ByteReader): string {
  const code = reader.byte();
  const name = VALUE_TYPES[code];
  if (!name) throw new WasmFormatError(`unsupported value type 0x${code.toString(16)} at byte ${reader.pos - 1}`);
  return name;
}

function readTypes(reader: ByteReader): (Signature | null)[] {
  const types: (Signature | null)[] = [];
  for (let n = reader.u32(); n > 0; n--) {
    const form = reader.byte();
    if (form !== 0x60) {
      // GC proposal types (rec groups, structs) are not function signatures a host import could use.
      throw new WasmFormatError(`type section entry of form 0x${form.toString(16)} is not supported`);
    }
    const params = Array.from({ length: reader.u32() }, () => valueType(reader)).join(' ');
    const results = Array.from({ length: reader.u32() }, () => valueType(reader)).join(' ');
    types.push({ params, results });
  }
  return types;
}

const EXPORT_KINDS = ['func', 'table', 'memory', 'global', 'tag'] as const;

/** Reads what the sandbox needs to decide about a module before it is compiled: imports, memories, exports. */
export function readModuleShape(bytes: Uint8Array): ModuleShape {
  const sections = readSections(bytes);
  let types: (Signature | null)[] = [];
  const imports: ModuleImport[] = [];
  const memories: Limits[] = [];
  const exports: ModuleShape['exports'] = [];
  for (const section of sections) {
    const reader = new ByteReader(bytes, section.payloadStart, section.end);
    if (section.id === SECTION.type) {
      types = readTypes(reader);
    } else if (section.id === SECTION.import) {
      for (let n = reader.u32(); n > 0; n--) {
        const module = reader.name();
        const name = reader.name();
        const kind = reader.byte();
        if (kind === 0x00) {
          const index = reader.u32();
          imports.push({ module, name, kind: 'func', signature: types[index] ?? null });
        } else if (kind === 0x01) {
          reader.byte();
          readLimits(reader);
          imports.push({ module, name, kind: 'table' });
        } else if (kind === 0x02) {
          imports.push({ module, name, kind: 'memory', limits: readLimits(reader) });
        } else if (kind === 0x03) {
          reader.byte();
          reader.byte();
          imports.push({ module, name, kind: 'global' });
        } else if (kind === 0x04) {
          reader.byte();
          reader.u32();
          imports.push({ module, name, kind: 'tag' });
        } else {
          throw new WasmFormatError(`unknown import kind 0x${kind.toString(16)} for ${module}.${name}`);
        }
      }
    } else if (section.id === SECTION.memory) {
      for (let n = reader.u32(); n > 0; n--) memories.push(readLimits(reader));
    } else if (section.id === SECTION.export) {
      for (let n = reader.u32(); n > 0; n--) {
        const name = reader.name();
        const kind = EXPORT_KINDS[reader.byte()];
        reader.u32();
        if (!kind) throw new WasmFormatError(`export ${name} has an unknown kind`);
        exports.push({ name, kind });
      }
    }
  }
  return { sections, imports, memories, exports };
}
