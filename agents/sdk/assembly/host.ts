// The host functions of the guest ABI v1 (docs/agent-runtime.md). Each takes a UTF-8 JSON request and returns
// (ptr << 32) | len of a UTF-8 JSON response the host wrote into memory it got from omni_alloc.
import { JsonValue, parseJson, quote } from './json';

@external('omni', 'output') declare function omni_output(ptr: usize, len: i32): i64;
@external('omni', 'artifact') declare function omni_artifact(ptr: usize, len: i32): i64;
@external('omni', 'consent') declare function omni_consent(ptr: usize, len: i32): i64;
@external('omni', 'state') declare function omni_state(ptr: usize, len: i32): i64;
@external('omni', 'scratch_get') declare function omni_scratch_get(ptr: usize, len: i32): i64;
@external('omni', 'scratch_set') declare function omni_scratch_set(ptr: usize, len: i32): i64;

/** Hands a request to a host function and returns the parsed response, freeing the host's buffer. */
export function callHost(fn: (ptr: usize, len: i32) => i64, request: string): JsonValue {
  const bytes = String.UTF8.encode(request);
  const result = fn(changetype<usize>(bytes), bytes.byteLength);
  const ptr = <usize>(result >>> 32);
  const len = <i32>(result & 0xffffffff);
  const text = String.UTF8.decodeUnsafe(ptr, len);
  heap.free(ptr);
  return parseJson(text);
}

export function output(request: string): JsonValue {
  return callHost(omni_output, request);
}
export function artifact(request: string): JsonValue {
  return callHost(omni_artifact, request);
}
export function consent(request: string): JsonValue {
  return callHost(omni_consent, request);
}
export function state(request: string): JsonValue {
  return callHost(omni_state, request);
}
export function scratchGet(request: string): JsonValue {
  return callHost(omni_scratch_get, request);
}
export function scratchSet(request: string): JsonValue {
  return callHost(omni_scratch_set, request);
}

/**
 * A log line from onAbort, just before the agent traps: the answer is not read. (Going through output() there, which
 * parses the answer, made AssemblyScript 0.28 crash while compiling agents that parse no JSON of their own.)
 */
export function logBeforeTrap(text: string): void {
  const bytes = String.UTF8.encode('{"content_type":"text/x-log","chunk_id":"log","data":' + quote(text) + '}');
  omni_output(changetype<usize>(bytes), bytes.byteLength);
}
