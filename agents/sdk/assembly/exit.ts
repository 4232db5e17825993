// Ending the turn early. WASI's proc_exit is one of the few WASI imports the sandbox allows (docs/agent-runtime.md):
// a non-zero code ends the run as failed ("the agent exited with code N"), and its staged writes are dropped.
@external('wasi_snapshot_preview1', 'proc_exit') declare function wasi_proc_exit(code: u32): void;

export function procExit(code: u32): void {
  wasi_proc_exit(code);
}
