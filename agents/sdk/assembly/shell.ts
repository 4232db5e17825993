// process.exec: only agents whose manifest declares it may import this (the host checks imports).
import { callHost } from './host';
import { JsonValue } from './json';

@external('omni', 'shell') declare function omni_shell(ptr: usize, len: i32): i64;

export function shellCall(request: string): JsonValue {
  return callHost(omni_shell, request);
}
