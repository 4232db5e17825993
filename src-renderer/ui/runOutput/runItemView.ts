import type { RunItem } from '../../../src-preload/contract';
import { formatBytes } from '../formatBytes';

/** An event of a run, shown above its screen rather than inside the program's output. */
export interface RunNotice {
  seq: number;
  ts: number;
  /** The event's name as the host wrote it ("exit", "killed", a watcher's event name, ...). */
  event: string;
  text: string;
  tone: 'info' | 'warning' | 'watcher';
}

/**
 * What a run item becomes on its card. The screen shows the program's bytes and nothing else, so copying or searching
 * it finds what the program printed:
 * - stdout and PTY output as they are; stderr tinted (red, then back to the default colour) so it stands out;
 * - input (send_keys) not at all in a PTY, where the terminal echoes it anyway; in pipe mode, where nothing echoes,
 *   as a dim line so the conversation stays readable;
 * - events as notices in the card.
 */
export type RunItemView = { kind: 'screen'; text: string } | { kind: 'notice'; notice: RunNotice } | { kind: 'none' };

const STDERR_ON = '\x1b[31m';
const DEFAULT_FG = '\x1b[39m';
const DIM_ON = '\x1b[2m';
const NORMAL = '\x1b[22m';

export function viewOfRunItem(item: RunItem, pty: boolean): RunItemView {
  switch (item.kind) {
    case 'stdout':
    case 'output':
      return { kind: 'screen', text: item.data };
    case 'stderr':
      return { kind: 'screen', text: `${STDERR_ON}${item.data}${DEFAULT_FG}` };
    case 'input':
      if (pty) return { kind: 'none' };
      return { kind: 'screen', text: `${DIM_ON}› ${item.data.replace(/\n(?!$)/g, '\n› ')}${item.data.endsWith('\n') ? '' : '\n'}${NORMAL}` };
    case 'event':
      return { kind: 'notice', notice: noticeOf(item) };
  }
}

function detailNumber(detail: Record<string, unknown> | undefined, ...keys: string[]): number | undefined {
  for (const key of keys) {
    const value = detail?.[key];
    if (typeof value === 'number' && Number.isFinite(value)) return value;
  }
  return undefined;
}

function detailString(detail: Record<string, unknown> | undefined, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = detail?.[key];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

/** The rest of an event's detail as "key: value" pairs, for events this view has no words for. */
function detailSummary(detail: Record<string, unknown> | undefined): string {
  if (!detail) return '';
  return Object.entries(detail)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/**
 * Words for the host's own events (src-main/node/exec writes exit, killed, timeout, truncated, recovered,
 * host_stopped, disk_quota); anything else is a watcher's event, whose name is the user's or agent's choice.
 */
export function noticeOf(item: Pick<RunItem, 'seq' | 'ts' | 'data' | 'detail'>): RunNotice {
  const { detail } = item;
  const base = { seq: item.seq, ts: item.ts, event: item.data };
  const reason = detailString(detail, 'reason', 'message');
  switch (item.data) {
    case 'exit': {
      const code = detailNumber(detail, 'exit_code');
      const status = detailString(detail, 'status');
      const signal = detailString(detail, 'signal');
      if (status !== undefined && status !== 'exited') {
        const words = status === 'timed_out' ? 'timed out' : status;
        return { ...base, text: reason ? `ended (${words}): ${reason}` : `ended: ${words}${signal ? ` (${signal})` : ''}`, tone: 'warning' };
      }
      const text = code !== undefined ? `exited with code ${code}` : signal ? `ended by ${signal}` : 'exited';
      return { ...base, text: reason ? `${text}: ${reason}` : text, tone: code === 0 ? 'info' : 'warning' };
    }
    case 'killed': {
      const by = detailString(detail, 'by');
      return { ...base, text: `killed${by ? ` by ${by === 'user' ? 'you' : by}` : ''}`, tone: 'warning' };
    }
    case 'timeout': {
      const secs = detailNumber(detail, 'timeout_secs');
      return { ...base, text: `timed out${secs !== undefined ? ` after ${secs} s` : ''}; the whole process group was stopped`, tone: 'warning' };
    }
    case 'truncated': {
      const limit = detailNumber(detail, 'max_output_bytes');
      return { ...base, text: `output truncated${limit !== undefined ? ` at ${formatBytes(limit)}` : ''}: later output was not kept`, tone: 'warning' };
    }
    case 'recovered': {
      const attempt = detailNumber(detail, 'attempt');
      const fallback = `the host stopped during attempt ${attempt ?? '?'}; the run is queued again`;
      return { ...base, text: `recovered: ${detailString(detail, 'message') ?? fallback}`, tone: 'warning' };
    }
    case 'disk_quota':
      return { ...base, text: reason ?? "the run reached its staged-writes limit; its writes were dropped", tone: 'warning' };
    case 'host_stopped':
      return { ...base, text: reason ?? 'the host stopped; the run is recovered when it starts again', tone: 'warning' };
    default: {
      const text = detailString(detail, 'match');
      return { ...base, text: text ?? (reason || detailSummary(detail)), tone: 'watcher' };
    }
  }
}
