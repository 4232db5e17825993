import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Run, RunItem } from '../../src-preload/contract/exec';
import { movedIndex } from '../../src-renderer/features/runs/listNavigation';
import { actorLabel, commandLine, durationText, execOutcomeKind, formatDuration, isBadOutcome, runDurationMs, statusLabel, wasRecovered } from '../../src-renderer/features/runs/runFormat';
import { formatBytes } from '../../src-renderer/ui/formatBytes';
import { viewOfRunItem } from '../../src-renderer/ui/runOutput/runItemView';
import { sandboxSummary } from '../../src-renderer/features/runs/sandboxSummary';
import { isAtLeastAsRecent, mergeRuns } from '../../src-renderer/features/runs/runList';

function run(overrides: Partial<Run> = {}): Run {
  return {
    run_id: 'run_aaaaaaaa',
    session_id: 'ses_1',
    actor: 'user',
    argv: ['/bin/sh', '-c', 'make test'],
    cwd: '/work/project',
    pty: false,
    background: true,
    status: 'running',
    exit_code: null,
    signal: null,
    reason: null,
    timeout_secs: null,
    max_output_bytes: null,
    output_bytes: 0,
    truncated: false,
    attempt: 1,
    created_at: 1_000,
    started_at: 1_500,
    ended_at: null,
    last_seq: 0,
    sandbox: [],
    ...overrides,
  };
}

function item(kind: RunItem['kind'], data: string, detail?: Record<string, unknown>): RunItem {
  return { seq: 7, ts: 1_700_000_000_000, kind, data, detail };
}

test('durations read precisely while short and coarsely once long', () => {
  assert.equal(formatDuration(0), '0 ms');
  assert.equal(formatDuration(850), '850 ms');
  assert.equal(formatDuration(4_250), '4.2 s');
  assert.equal(formatDuration(12_900), '12 s');
  assert.equal(formatDuration(185_000), '3 min 05 s');
  assert.equal(formatDuration(7_620_000), '2 h 07 min');
  assert.equal(formatDuration(-5), '0 ms', 'clock skew between host and page never shows a negative time');
});

test('sizes use binary units and never show more than the size is', () => {
  assert.equal(formatBytes(0), '0 B');
  assert.equal(formatBytes(1023), '1023 B');
  assert.equal(formatBytes(1024), '1 KiB');
  assert.equal(formatBytes(1536), '1.5 KiB');
  assert.equal(formatBytes(10 * 1024 * 1024), '10 MiB');
  assert.equal(formatBytes(1024 * 1024 - 1), '1023 KiB');
  assert.equal(formatBytes(3 * 1024 ** 3), '3 GiB');
});

test('the duration reads as waiting while a run is queued', () => {
  assert.equal(durationText(run({ status: 'queued', started_at: null }), 4_000), 'waiting 3.0 s');
  assert.equal(durationText(run({ status: 'running' }), 4_000), '2.5 s');
  assert.equal(durationText(run({ status: 'killed', started_at: null, ended_at: 2_000 }), 4_000), null);
});

test('a run’s duration: waiting while queued, ticking while running, fixed once ended', () => {
  assert.equal(runDurationMs(run({ status: 'queued', started_at: null }), 4_000), 3_000);
  assert.equal(runDurationMs(run({ status: 'running' }), 4_000), 2_500);
  assert.equal(runDurationMs(run({ status: 'exited', exit_code: 0, ended_at: 2_000 }), 99_000), 500);
  assert.equal(runDurationMs(run({ status: 'failed', started_at: null, ended_at: 2_000 }), 99_000), null, 'a run that never started has no duration');
});

test('status words carry the exit code or signal, and bad outcomes are flagged', () => {
  assert.equal(statusLabel(run({ status: 'exited', exit_code: 0 })), 'exited 0');
  assert.equal(statusLabel(run({ status: 'killed', signal: 'SIGTERM' })), 'killed (SIGTERM)');
  assert.equal(statusLabel(run({ status: 'timed_out' })), 'timed out');
  assert.equal(isBadOutcome(run({ status: 'exited', exit_code: 0 })), false);
  assert.equal(isBadOutcome(run({ status: 'exited', exit_code: 2 })), true);
  assert.equal(isBadOutcome(run({ status: 'killed' })), false, 'a kill the user asked for is not a failure');
  assert.equal(isBadOutcome(run({ status: 'failed' })), true);
});

test('the command shows as typed; argv that needs quoting is quoted', () => {
  assert.equal(commandLine(['/bin/sh', '-c', "printf 'a\\n'"]), "printf 'a\\n'");
  assert.equal(commandLine(['grep', '-r', 'two words', '.']), "grep -r 'two words' .");
  assert.equal(commandLine(['echo', "it's"]), "echo 'it'\\''s'");
  assert.equal(actorLabel('user'), 'you');
  assert.equal(actorLabel('agent:scaffolder'), 'agent scaffolder');
  assert.equal(actorLabel('scaffolder'), 'agent scaffolder');
  assert.equal(wasRecovered(run({ attempt: 1 })), false);
  assert.equal(wasRecovered(run({ attempt: 2 })), true);
});

test('run changes merge newest first, and an older record never undoes a newer one', () => {
  const a = run({ run_id: 'run_aaaaaaaa', created_at: 1_000 });
  const b = run({ run_id: 'run_bbbbbbbb', created_at: 2_000, status: 'queued', started_at: null });
  let list = mergeRuns([], [a, b]);
  assert.deepEqual(
    list.map((r) => r.run_id),
    ['run_bbbbbbbb', 'run_aaaaaaaa'],
  );

  const exited = { ...a, status: 'exited' as const, exit_code: 0, ended_at: 3_000, last_seq: 3, output_bytes: 12 };
  list = mergeRuns(list, [exited]);
  assert.equal(list.find((r) => r.run_id === a.run_id)?.status, 'exited');

  // The list answer was taken before the exit and arrives after it: the exit stays.
  const same = mergeRuns(list, [{ ...a, last_seq: 2, output_bytes: 12 }]);
  assert.equal(same, list, 'nothing changed, so the same array (no re-render)');

  // queued → running has no item of its own: the status orders it.
  list = mergeRuns(list, [{ ...b, status: 'running', started_at: 2_100 }]);
  assert.equal(list[0].status, 'running');
  assert.equal(isAtLeastAsRecent(b, list[0]), false);
});

test('a recovered run replaces its earlier attempt even though it is queued again', () => {
  const before = run({ status: 'running', attempt: 1, last_seq: 40 });
  // Recovery writes a recovery event (last_seq moves) and queues the run again.
  const recovered = run({ status: 'queued', attempt: 1, last_seq: 41 });
  assert.equal(isAtLeastAsRecent(recovered, before), true);
  const rerun = run({ status: 'running', attempt: 2, last_seq: 41 });
  assert.equal(isAtLeastAsRecent(rerun, recovered), true);
  assert.equal(isAtLeastAsRecent(before, rerun), false);
});

test('output goes to the screen, stderr tinted; events become notices', () => {
  assert.deepEqual(viewOfRunItem(item('stdout', 'hello\n'), false), { kind: 'screen', text: 'hello\n' });
  assert.deepEqual(viewOfRunItem(item('output', '\x1b[1mbold\x1b[0m\r\n'), true), { kind: 'screen', text: '\x1b[1mbold\x1b[0m\r\n' });
  const stderr = viewOfRunItem(item('stderr', 'oops\n'), false);
  assert.equal(stderr.kind, 'screen');
  assert.equal(stderr.kind === 'screen' && stderr.text, '\x1b[31moops\n\x1b[39m');

  const exit = viewOfRunItem(item('event', 'exit', { status: 'exited', exit_code: 3, signal: null }), false);
  assert.equal(exit.kind, 'notice');
  assert.equal(exit.kind === 'notice' && exit.notice.text, 'exited with code 3');
  assert.equal(exit.kind === 'notice' && exit.notice.tone, 'warning');

  const killed = viewOfRunItem(item('event', 'exit', { status: 'killed', exit_code: null, signal: null, reason: 'killed by user before it started' }), false);
  assert.equal(killed.kind === 'notice' && killed.notice.text, 'ended (killed): killed by user before it started');
  const byYou = viewOfRunItem(item('event', 'killed', { by: 'user' }), false);
  assert.equal(byYou.kind === 'notice' && byYou.notice.text, 'killed by you');
  const timeout = viewOfRunItem(item('event', 'timeout', { timeout_secs: 5 }), false);
  assert.match(timeout.kind === 'notice' ? timeout.notice.text : '', /^timed out after 5 s/);

  const truncated = viewOfRunItem(item('event', 'truncated', { max_output_bytes: 1_048_576 }), false);
  assert.match(truncated.kind === 'notice' ? truncated.notice.text : '', /truncated at 1 MiB/);

  const watcher = viewOfRunItem(item('event', 'build-failed', { match: 'error: x', watcher: 0, stream: 'stdout', offset: 12 }), false);
  assert.deepEqual(watcher.kind === 'notice' && [watcher.notice.event, watcher.notice.text, watcher.notice.tone], ['build-failed', 'error: x', 'watcher']);
});

test('typed input is not shown twice in a PTY (it echoes there) and shown dimmed in pipe mode', () => {
  assert.deepEqual(viewOfRunItem(item('input', 'echo hi\r'), true), { kind: 'none' });
  const piped = viewOfRunItem(item('input', 'one\ntwo\n'), false);
  assert.equal(piped.kind === 'screen' && piped.text, '\x1b[2m› one\n› two\n\x1b[22m');
  const partial = viewOfRunItem(item('input', 'abc'), false);
  assert.equal(partial.kind === 'screen' && partial.text, '\x1b[2m› abc\n\x1b[22m');
});

test('list keys move the focus within the list and stop at its ends', () => {
  assert.equal(movedIndex('ArrowDown', 0, 3), 1);
  assert.equal(movedIndex('ArrowDown', 2, 3), 2);
  assert.equal(movedIndex('ArrowUp', 0, 3), 0);
  assert.equal(movedIndex('End', 0, 3), 2);
  assert.equal(movedIndex('Home', 2, 3), 0);
  assert.equal(movedIndex('PageDown', 0, 25), 10);
  assert.equal(movedIndex('Enter', 1, 3), null, 'Enter opens (the row button does it), it does not move');
  assert.equal(movedIndex('ArrowDown', 0, 0), null);
});

test('the sandbox line counts the limits enforced on this machine, or says agents cannot run commands at all', () => {
  const items = [
    { id: 'namespaces', enforced: true, via: 'bwrap', sentence: 'Own user, pid and network namespaces' },
    { id: 'memory', enforced: false, via: null, sentence: 'No memory limit: cgroups are not delegated here' },
  ];
  assert.equal(sandboxSummary({ usable: true, problem: null, items }), 'Agents’ commands run sandboxed: 1 of 2 limits enforced on this machine');
  assert.match(sandboxSummary({ usable: false, problem: { message: 'bwrap is missing', hint: 'install bubblewrap' }, items: [] }), /cannot run on this machine/);
});

test('a process run gets the outcome chip of its ending: clean exit completed, other exits and failures failed, a kill cancelled', () => {
  assert.equal(execOutcomeKind({ status: 'exited', exit_code: 0 }), 'completed');
  assert.equal(execOutcomeKind({ status: 'exited', exit_code: 127 }), 'failed');
  assert.equal(execOutcomeKind({ status: 'failed', exit_code: null }), 'failed');
  assert.equal(execOutcomeKind({ status: 'killed', exit_code: null }), 'cancelled');
  assert.equal(execOutcomeKind({ status: 'timed_out', exit_code: null }), 'timed-out');
  assert.equal(execOutcomeKind({ status: 'interrupted', exit_code: null }), 'interrupted');
  assert.equal(execOutcomeKind({ status: 'running', exit_code: null }), 'live');
  assert.equal(execOutcomeKind({ status: 'queued', exit_code: null }), 'live');
});
