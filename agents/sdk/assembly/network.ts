// network: only agents whose manifest declares it may import this (the host checks imports).
import { callHost } from './host';
import { JsonValue } from './json';

@external('omni', 'net_fetch') declare function omni_net_fetch(ptr: usize, len: i32): i64;

export function netFetch(request: string): JsonValue {
  return callHost(omni_net_fetch, request);
}
