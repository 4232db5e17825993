// memory: the per-agent KV store; only agents that declare `memory` may import these.
import { callHost } from './host';
import { JsonValue } from './json';

@external('omni', 'kv_get') declare function omni_kv_get(ptr: usize, len: i32): i64;
@external('omni', 'kv_set') declare function omni_kv_set(ptr: usize, len: i32): i64;

export function kvGetRaw(request: string): JsonValue {
  return callHost(omni_kv_get, request);
}
export function kvSetRaw(request: string): JsonValue {
  return callHost(omni_kv_set, request);
}
