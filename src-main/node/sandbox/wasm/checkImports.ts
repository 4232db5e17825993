import { OMNI_FUNCTION_SIGNATURE, OMNI_FUNCTIONS, OMNI_MEMORY_IMPORT, OMNI_MODULE, REQUIRED_EXPORTS, WASI_FUNCTIONS, WASI_MODULE } from './abi';
import type { ModuleShape, Signature } from './moduleShape';
import type { ModuleProblem } from './sandboxErrors';

const show = (s: Signature) => `(${s.params}) -> (${s.results})`;

/**
 * Every problem with a module's imports and exports against ABI v1 and the manifest's declared capabilities. An
 * `omni.*` import whose capability the manifest does not declare is refused even though the ABI knows it: a
 * module must not carry a door its manifest does not admit to.
 */
export function checkImports(shape: ModuleShape, declared: ReadonlySet<string>): ModuleProblem[] {
  const problems: ModuleProblem[] = [];
  for (const imp of shape.imports) {
    const subject = `${imp.module}.${imp.name}`;
    if (imp.module === OMNI_MODULE && imp.name === OMNI_MEMORY_IMPORT && imp.kind === 'memory') continue;
    if (imp.module === OMNI_MODULE && imp.kind === 'func' && Object.hasOwn(OMNI_FUNCTIONS, imp.name)) {
      const capability = OMNI_FUNCTIONS[imp.name];
      if (capability && !declared.has(capability)) {
        problems.push({
          code: 'not_declared',
          subject,
          message: `it imports ${subject}, which needs the capability "${capability}" that its manifest does not declare (add "${capability}" to capabilities, or drop the import)`,
        });
      }
      if (imp.signature && show(imp.signature) !== show(OMNI_FUNCTION_SIGNATURE)) {
        problems.push({ code: 'bad_signature', subject, message: `${subject} is imported as ${show(imp.signature)}, ABI v1 has ${show(OMNI_FUNCTION_SIGNATURE)}` });
      }
      continue;
    }
    if (imp.module === WASI_MODULE && imp.kind === 'func' && Object.hasOwn(WASI_FUNCTIONS, imp.name)) {
      const expected = WASI_FUNCTIONS[imp.name];
      if (imp.signature && show(imp.signature) !== show(expected)) {
        problems.push({ code: 'bad_signature', subject, message: `${subject} is imported as ${show(imp.signature)}, WASI preview1 has ${show(expected)}` });
      }
      continue;
    }
    problems.push({
      code: 'unknown_import',
      subject,
      message: `it imports ${subject} (${imp.kind}), which guest ABI v1 does not provide (allowed: omni.{${Object.keys(OMNI_FUNCTIONS).join(',')}}, omni.memory, and wasi_snapshot_preview1.{${Object.keys(WASI_FUNCTIONS).join(',')}})`,
    });
  }
  for (const [name, kind] of Object.entries(REQUIRED_EXPORTS)) {
    if (!shape.exports.some((e) => e.name === name && e.kind === kind)) {
      problems.push({ code: 'missing_export', subject: name, message: `it does not export the function ${name}, which guest ABI v1 requires` });
    }
  }
  const importsMemory = shape.imports.some((i) => i.kind === 'memory');
  if (!importsMemory && !shape.exports.some((e) => e.name === 'memory' && e.kind === 'memory')) {
    problems.push({ code: 'missing_export', subject: 'memory', message: 'it neither exports its memory as "memory" nor imports omni.memory, so the host cannot read its requests' });
  }
  return problems;
}
