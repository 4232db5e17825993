// The real Claude Code and Codex binaries the harness integration tests drive (installed on demand by
// scripts/install-harness-clis.mjs into .cache/harness-clis; tests are skipped when absent), and the two ways a
// host runs them: headless with pipes (runHeadless) and interactive in a PTY through the host's PtyProcess
// (PtyScreen).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Terminal } from '@xterm/headless';
import { harnessStdio, type ProcessInvocationSpec } from '../../src-main/node/harness';
import { readProcTable } from '../../src-main/node/base/processTable';
import { PtyProcess } from '../../src-main/node/terminals/ptyProcess';
import { waitFor } from '../helpers';

const modules = resolve(__dirname, '../../.cache/harness-clis/node_modules');
export const claude = join(modules, `@anthropic-ai/claude-code-${process.platform}-${process.arch}`, 'claude');
const codexTriple = process.arch === 'arm64' ? 'aarch64-unknown-linux-musl' : 'x86_64-unknown-linux-musl';
export const codex = join(modules, `@openai/codex-${process.platform}-${process.arch}`, 'vendor', codexTriple, 'bin', 'codex');
/** node:test's `skip` option: a reason while the CLIs are not installed. */
export const skipWithoutClis = !existsSync(claude) || !existsSync(codex) ? 'run `node scripts/install-harness-clis.mjs` first' : false;

/** The base env a host gives a harness process (spec.env is merged over it): a PATH and a home, nothing else. */
export function baseEnv(home: string): Record<string, string> {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
}

export type CliEvent = Record<string, unknown>;

/**
 * Spawns a headless spec as the host would (argv without a shell, cwd, spec.env over `base`, harnessStdio's stdio)
 * and waits for it to exit; returns its JSONL events. Killed (and reaped) if it runs past `timeoutMs`.
 */
export async function runHeadless(spec: ProcessInvocationSpec, base: Record<string, string>, timeoutMs = 90_000): Promise<{ events: CliEvent[]; code: number | null; stderr: string }> {
  const stdio = harnessStdio(spec);
  assert.equal(stdio.kind, 'spawn');
  const [command, ...args] = spec.argv;
  const child = spawn(command, args, { cwd: spec.cwd, env: { ...base, ...spec.env }, stdio: stdio.kind === 'spawn' ? stdio.stdio : 'pipe' });
  const events: CliEvent[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      events.push(JSON.parse(line) as CliEvent);
    } catch {
      // not a JSON line
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const code = await new Promise<number | null>((done) => child.once('close', done));
  clearTimeout(timer);
  return { events, code, stderr };
}

/** Runs a headless spec whose first event matching `pick` is wanted: kills the CLI as soon as it appears (and `alsoWaitFor` holds). */
export async function firstEvent(spec: ProcessInvocationSpec, base: Record<string, string>, pick: (event: CliEvent) => boolean, alsoWaitFor: () => boolean = () => true): Promise<CliEvent> {
  const stdio = harnessStdio(spec);
  assert.equal(stdio.kind, 'spawn');
  const [command, ...args] = spec.argv;
  const child = spawn(command, args, { cwd: spec.cwd, env: { ...base, ...spec.env }, stdio: stdio.kind === 'spawn' ? stdio.stdio : 'pipe' });
  const exited = new Promise((done) => child.once('close', done));
  let found: CliEvent | undefined;
  createInterface({ input: child.stdout! }).on('line', (line) => {
    try {
      const event = JSON.parse(line) as CliEvent;
      if (!found && pick(event)) found = event;
    } catch {
      // not a JSON line
    }
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    return await waitFor(() => (found && alsoWaitFor() ? found : undefined), `the first event of ${command}`, 60_000);
  } catch (error) {
    throw new Error(`${(error as Error).message}; stderr: ${stderr.slice(0, 2000)}`);
  } finally {
    // Killed and reaped before the temp dirs are removed: the CLIs keep writing into their homes while they run.
    child.kill('SIGKILL');
    await exited;
  }
}

const OSC = new RegExp(String.raw`\x1b\][^\x07\x1b]*(\x07|\x1b\\)`, 'g');
const CSI = new RegExp(String.raw`\x1b\[[0-9;?<>=]*[A-Za-z]`, 'g');
const SHORT_ESCAPE = new RegExp(String.raw`\x1b[78=>]`, 'g');

/** Screen output without escape sequences, with runs of spaces collapsed (the TUIs position words one by one). */
export function plain(output: string): string {
  return output.replace(OSC, '').replace(CSI, ' ').replace(SHORT_ESCAPE, '').replace(/\s+/g, ' ');
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What Claude Code 2.1.330's TUI shows once it takes input: its footer's permission mode (asking is "manual"). */
export const CLAUDE_TUI_READY = [/manual mode on/];

/**
 * What Codex 0.169.0's TUI shows once it takes input. Its prompt appears before the session is configured, and a
 * message submitted then can sit unsent ("tab to queue message"); the footer "<model> <effort> · <cwd>" appears
 * once it is configured.
 */
export function codexTuiReady(cwd: string): RegExp[] {
  return [/Ask Codex to do anything/, new RegExp(`· ${escapeRegExp(cwd)}`)];
}

/**
 * An interactive spec running in a PTY (120×40) through the host's PtyProcess. Its output is kept twice: as the raw
 * stream (plain text, with marks to look only at what follows) and drawn on a headless terminal (what a user sees).
 */
export class PtyScreen {
  private readonly pty: PtyProcess;
  private readonly terminal = new Terminal({ cols: 120, rows: 40, scrollback: 5000, allowProposedApi: true });
  private output = '';

  constructor(spec: ProcessInvocationSpec, base: Record<string, string>) {
    const [shell, ...args] = spec.argv;
    this.pty = new PtyProcess({ shell, args, cwd: spec.cwd, cols: 120, rows: 40, env: { ...base, TERM: 'xterm-256color', ...spec.env } });
    this.pty.onDidData((chunk) => {
      this.output += chunk.text;
      this.terminal.write(chunk.text);
    });
  }

  /** The drawn screen and its scrollback, line by line. */
  private drawn(): string {
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < buffer.length; row++) lines.push(buffer.getLine(row)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Everything shown so far, as plain text. */
  text(): string {
    return plain(this.output);
  }

  /** A point in the output (a raw offset, stable as output grows): pass it as `from` to look only at what follows. */
  mark(): number {
    return this.output.length;
  }

  /** Waits until the plain text shown after `from` (a mark()) matches; the error quotes the screen's tail. */
  async waitFor(pattern: RegExp, from = 0, timeoutMs = 60_000): Promise<string> {
    await waitFor(() => pattern.test(plain(this.output.slice(from))), `${pattern} on the screen`, timeoutMs).catch((error: Error) => {
      throw new Error(`${error.message}; the screen said: ${this.text().slice(-1500)}`);
    });
    return this.text();
  }

  /**
   * Waits until `text` is shown, comparing without whitespace: in the raw stream after `from`, or on the drawn screen.
   * A TUI that draws a line in several frames (streamed answer, echo of keystrokes) moves the cursor between pieces,
   * and may draw other lines in between (Codex redraws its footer mid-echo: "hello pelic", the footer, "an"), which
   * only the drawn screen puts back together. The drawn screen also holds what came before `from`: callers wait for
   * text that cannot have been there.
   */
  async waitForText(text: string, from = 0, timeoutMs = 60_000): Promise<void> {
    const wanted = text.replace(/\s+/g, '');
    const shown = (): boolean => plain(this.output.slice(from)).replace(/\s+/g, '').includes(wanted) || this.drawn().replace(/\s+/g, '').includes(wanted);
    await waitFor(shown, `"${text}" on the screen`, timeoutMs).catch((error: Error) => {
      throw new Error(`${error.message}; the screen said: ${this.text().slice(-1500)}`);
    });
  }

  write(data: string): void {
    this.pty.write(data);
  }

  /**
   * Types `message` into the TUI's prompt and submits it; returns the mark() from which its answer will show.
   * Text and Enter go apart: a TUI takes one burst ending in "\r" as a paste (a newline, not a submit).
   */
  async submit(message: string): Promise<number> {
    const from = this.mark();
    this.write(message);
    // Its last half echoed: a TUI may redraw other lines between the first keystroke's echo and the rest (Codex
    // swaps its footer when the prompt stops being empty: "h", the footer, then "ello pelican").
    const compact = message.replace(/\s+/g, '');
    await this.waitForText(compact.slice(Math.floor(compact.length / 2)), from);
    this.write('\r');
    return from;
  }

  async close(): Promise<void> {
    await this.pty.kill();
    this.pty.dispose();
    this.terminal.dispose();
  }
}

/**
 * Live processes (not zombies) whose environment holds `name=value`: a harness home variable is unique to a test,
 * so this finds anything a CLI left behind, including a daemon that detached from the process tree.
 */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  return readProcTable()
    .filter((entry) => entry.state !== 'Z' && entry.pid !== process.pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry.pid}/environ`, 'latin1').split('\0').includes(wanted);
      } catch {
        return false; // gone, or another user's
      }
    })
    .map((entry) => entry.pid);
}
