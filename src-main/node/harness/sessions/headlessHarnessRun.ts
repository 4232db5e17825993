import { spawn, type ChildProcess } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { HarnessCliFrontend, HarnessOutput } from '../../../../src-preload/contract/harness';
import { Emitter, type Disposable } from '../../../../src-preload/rpc';
import { harnessStdio, type ProcessInvocationSpec } from '..';
import { killTree } from '../../terminals/processTree';
import { CLI_HANGUP_GRACE_MS } from './cliHangupGrace';
import { parseHarnessLine } from './harnessEventParsing';

/** Output kept per run for a card that opens late (the newest items; a run's text is small next to this). */
const KEPT_OUTPUTS = 5000;
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Variables a harness must not inherit from the host: the host's own settings, and any provider key or CLI config of
 * the user's (the CLI gets its credential from the vault's proxy only, and its config from the harness home).
 */
export function isWithheldFromHarness(name: string): boolean {
  return /^(OMNI_|ELECTRON_|npm_|ANTHROPIC_|OPENAI_|CLAUDE_|CODEX_|AZURE_OPENAI_|AWS_BEARER_TOKEN)/i.test(name);
}

export function inheritedHarnessEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined && !isWithheldFromHarness(name)) env[name] = value;
  return env;
}

/**
 * A headless CLI run over pipes: argv spawned without a shell in a process group of its own (so a stop ends the
 * whole tree), stdin closed (harnessStdio: the CLIs would otherwise wait for it), JSONL stdout parsed into output
 * items, stderr kept as log lines.
 */
export class HeadlessHarnessRun implements Disposable {
  private readonly child: ChildProcess;
  private readonly outputs: HarnessOutput[] = [];
  private readonly output = new Emitter<HarnessOutput>();
  private readonly key = new Emitter<string>();
  private readonly exited = new Emitter<{ exitCode: number | null; signal: string | null }>();
  readonly onDidOutput = this.output.event;
  /** The CLI reported its conversation id. */
  readonly onDidReportKey = this.key.event;
  readonly onDidExit = this.exited.event;
  private exitInfo: { exitCode: number | null; signal: string | null } | undefined;

  constructor(
    private readonly frontend: HarnessCliFrontend,
    spec: ProcessInvocationSpec,
  ) {
    const stdio = harnessStdio(spec);
    if (stdio.kind !== 'spawn') throw new Error('a headless run takes ioMode "pipes"');
    const [file, ...args] = spec.argv;
    this.child = spawn(file, args, { cwd: spec.cwd, env: { ...inheritedHarnessEnv(), ...spec.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    this.readLines(this.child.stdout!, (line) => this.onStdoutLine(line));
    this.readLines(this.child.stderr!, (line) => line.trim() && this.push({ type: 'log', text: line }));
    this.child.once('error', (error) => this.push({ type: 'log', text: `could not start ${file}: ${error.message}` }));
    this.child.once('close', (code, signal) => {
      this.exitInfo = { exitCode: code, signal };
      this.push({ type: 'exit', exitCode: code, signal });
      this.exited.fire(this.exitInfo);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get exit(): { exitCode: number | null; signal: string | null } | undefined {
    return this.exitInfo;
  }

  /** What was kept so far, then live items through onDidOutput. */
  snapshot(): HarnessOutput[] {
    return [...this.outputs];
  }

  private onStdoutLine(line: string): void {
    const parsed = parseHarnessLine(this.frontend, line);
    if (parsed.reportedKey) this.key.fire(parsed.reportedKey);
    for (const item of parsed.outputs) this.push(item);
  }

  private push(item: HarnessOutput): void {
    this.outputs.push(item);
    if (this.outputs.length > KEPT_OUTPUTS) this.outputs.splice(0, this.outputs.length - KEPT_OUTPUTS);
    this.output.fire(item);
  }

  private readLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
    const decoder = new StringDecoder('utf8');
    let pending = '';
    stream.on('data', (chunk: Buffer) => {
      pending += decoder.write(chunk);
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        onLine(pending.slice(0, newline));
        pending = pending.slice(newline + 1);
      }
      // A runaway line without a newline is cut rather than held forever.
      if (pending.length > MAX_LINE_CHARS) {
        onLine(pending);
        pending = '';
      }
    });
    stream.on('end', () => {
      const rest = pending + decoder.end();
      if (rest) onLine(rest);
    });
  }

  /** Ends the CLI and everything it started (its process group, session and descendants). */
  async kill(): Promise<void> {
    if (this.exitInfo || this.child.pid === undefined) return;
    const closed = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
    await killTree(this.child.pid, CLI_HANGUP_GRACE_MS);
    await closed;
  }

  dispose(): void {
    void this.kill();
    this.output.dispose();
    this.key.dispose();
    this.exited.dispose();
  }
}
