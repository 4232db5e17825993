/**
 * How `omni` ends without losing what it printed. On Linux a write to a pipe that is full (64 KiB unread) is queued
 * in the process and finished later by the event loop; process.exit() throws that queue away, so `omni … | wc -c`
 * counted 65536 of a 6 MB answer while a file (written synchronously) got it whole. Every command's exit therefore
 * waits here until stdout and stderr have handed everything to the reader, however slowly it reads.
 */

/** The status a shell reports for a program a closed pipe ended (128 + SIGPIPE), as for `yes | head -1`. */
export const BROKEN_PIPE_EXIT = 141;

/** Resolves once everything written to `stream` so far has left the process (or can never leave it). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.destroyed || stream.writableEnded || stream.errored) return resolve();
    // Writes complete in order, so the callback of an empty write comes after every earlier write is done;
    // with an error (the reader went away) as well: nothing more can be delivered then.
    stream.write('', () => resolve());
  });
}

/** Resolves once stdout and stderr have delivered everything printed so far. */
export function outputWritten(): Promise<void> {
  return Promise.all([written(process.stdout), written(process.stderr)]).then(() => undefined);
}

/** The code the process is ending with, once the command has finished and only its output is left to deliver. */
let ending: number | null = null;

/** Exits with `code` once everything printed has been delivered: the one way an `omni` command ends. */
export function exitAfterOutput(code: number): void {
  ending = code;
  void outputWritten().then(() => process.exit(code));
}

/**
 * A reader that stops early (`omni … | head -c 10`) closes the pipe, and the next write fails with EPIPE, which
 * Node raises as an uncaught error with a stack trace. The reader has what it wanted: end at once, quietly. A command
 * that had finished keeps its own exit code (the call did succeed); one cut off mid-way (an agent run still
 * streaming) ends with 141, as other Unix programs do. `onBroken` replaces that for a process that goes on.
 */
export function endQuietlyOnBrokenPipe(onBroken: () => void = () => process.exit(ending ?? BROKEN_PIPE_EXIT)): void {
  let broken = false;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (broken) return;
      broken = true;
      onBroken();
    });
  }
}
