// files.read / files.write: only agents whose manifest declares them may import these (the host checks imports).
import { callHost } from './host';
import { JsonValue } from './json';

@external('omni', 'files_read') declare function omni_files_read(ptr: usize, len: i32): i64;
@external('omni', 'files_list') declare function omni_files_list(ptr: usize, len: i32): i64;
@external('omni', 'files_write') declare function omni_files_write(ptr: usize, len: i32): i64;
@external('omni', 'files_create') declare function omni_files_create(ptr: usize, len: i32): i64;

export function filesRead(request: string): JsonValue {
  return callHost(omni_files_read, request);
}
export function filesList(request: string): JsonValue {
  return callHost(omni_files_list, request);
}
export function filesWrite(request: string): JsonValue {
  return callHost(omni_files_write, request);
}
export function filesCreate(request: string): JsonValue {
  return callHost(omni_files_create, request);
}
