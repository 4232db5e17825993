import type { ChangedFile, ChangeTurn, FileDiff, RestorePlan, SkippedFile, Snapshot, TurnSource } from '../../../src-preload/contract/changes';
import type { Session } from '../../../src-preload/contract';
import { Emitter } from '../../../src-preload/rpc';
import { DomainError } from '../base/domainError';
import type { HostLog } from '../base/hostLog';
import { newId } from '../base/ids';
import type { Ledger } from '../ledger/ledger';
import type { SessionService } from '../sessions/sessionService';
import type { Database } from '../store/database';
import type { SecretScrubber } from '../vault/secretScrubber';
import { reviewPath } from './changePath';
import { ChangeStore, FILE_VERDICT, skippedOf, toSnapshot, toTurn, type SnapshotRow, type TurnRow } from './changeStore';
import type { OpenSnapshotEngine, SnapshotEngine } from './snapshotEngine';
import { UNRECORDED_TURN, type TurnHandle, type TurnRecorder } from './turnRecorder';
import { fileVerdictOf, turnVerdictOf } from './verdictRules';
import { WorkspaceEngines } from './workspaceEngines';

export interface ChangesServiceOptions {
  db: Database;
  ledger: Ledger;
  sessions: Pick<SessionService, 'get'>;
  scrubber: Pick<SecretScrubber, 'scrubText'>;
  log: Pick<HostLog, 'error'>;
  /** The workspace's shadow store; opened once per workspace, so sessions on one workspace share it. */
  openEngine: OpenSnapshotEngine;
  now?: () => number;
}

/**
 * A caller that acts for one session (an agent, the CLI in a session): it sees that session's turns and snapshots
 * only; another session's are "not found", as if they did not exist. The UI, which shows every session, passes none.
 */
export interface ChangesScope {
  sessionId: string;
}

/** The characters of a turn's title kept: one line for a card. */
const TITLE_CHARS = 200;

type HunkVerdict = FileDiff['hunks'][number]['verdict'];

/** What reviewing a turn needs: its row, its workspace's engine and the two trees its changes lie between. */
interface Review {
  row: TurnRow;
  session: Session;
  engine: SnapshotEngine;
  from: string;
  to: string;
  /** The turn has not ended: `to` is the workspace as it is now. */
  running: boolean;
  skipped: SkippedFile[];
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * What agents changed in a session's workspace (docs/changes.md): a snapshot before and after every agent turn,
 * kept as rows (which session, which turn, which tree of the workspace's shadow store), and the user's review of
 * each turn: per-file and per-hunk verdicts, a reject putting that part back on disk, and restoring the workspace
 * to any snapshot as a turn of its own, so it can be undone. Snapshots, rejects and restores of one workspace run
 * one at a time, in the order asked, so a snapshot never sees a half-restored file.
 */
export class ChangesService implements TurnRecorder {
  private readonly store: ChangeStore;
  private readonly workspaces: WorkspaceEngines;
  /** Turn ends in flight: the host waits for them before it closes the database. */
  private readonly ending = new Set<Promise<void>>();
  private readonly changed = new Emitter<ChangeTurn>();
  /** A turn began, ended, or got a verdict. */
  readonly onDidChange = this.changed.event;
  private readonly now: () => number;

  constructor(private readonly options: ChangesServiceOptions) {
    this.store = new ChangeStore(options.db);
    this.workspaces = new WorkspaceEngines(options.openEngine);
    this.now = options.now ?? Date.now;
  }

  // ---- recording turns (the areas that run agents) ----

  async beginTurn(sessionId: string, source: TurnSource, agent: string, title: string): Promise<TurnHandle> {
    try {
      const { row } = await this.openTurn(sessionId, source, agent, title);
      return this.handleOf(row.id);
    } catch (error) {
      // The agent's turn goes on without a review rather than not at all.
      this.options.log.error(`changes: the ${source.kind} turn ${source.id} could not be recorded:`, error);
      return UNRECORDED_TURN;
    }
  }

  async prepare(sessionId: string): Promise<void> {
    let workspace: string;
    try {
      workspace = this.options.sessions.get(sessionId).workspace;
    } catch {
      return;
    }
    await this.workspaces.serially(workspace, async () => {
      const engine = await this.workspaces.engine(workspace);
      await engine.snapshot();
      await engine.idle();
    }).catch((error: unknown) => this.options.log.error(`changes: the workspace ${workspace} could not be prepared:`, error));
  }

  private async openTurn(sessionId: string, source: TurnSource, agent: string, title: string): Promise<{ row: TurnRow; before: SnapshotRow }> {
    const session = this.options.sessions.get(sessionId);
    const id = newId('turn');
    const before = await this.takeSnapshot(session, id, 'before');
    const row: TurnRow = {
      id,
      session_id: session.id,
      source_kind: source.kind,
      source_id: source.id,
      source_seq: source.seq ?? null,
      agent: this.oneLine(agent),
      title: this.oneLine(title),
      started_at: this.now(),
      ended_at: null,
      before_snapshot: before.id,
      after_snapshot: null,
      files_changed: 0,
    };
    this.store.insertTurn(row);
    this.fire(row);
    return { row, before };
  }

  /**
   * The first line of a prompt, a command or a task, scrubbed: a pasted token in a prompt's first line must not
   * land in SQLite. Scrubbed before it is cut to length, so a secret is never cut into a piece the patterns miss.
   */
  private oneLine(text: string): string {
    const line = text.trimStart().split(/\r?\n/, 1)[0] ?? '';
    const scrubbed = this.options.scrubber.scrubText(line.slice(0, 4096)).trim();
    return scrubbed.length > TITLE_CHARS ? `${scrubbed.slice(0, TITLE_CHARS - 1)}…` : scrubbed;
  }

  private handleOf(turnId: string): TurnHandle {
    let ended: Promise<void> | undefined;
    return {
      turnId,
      end: () => {
        if (!ended) {
          const ending = this.endTurn(turnId);
          this.ending.add(ending);
          ended = ending.finally(() => this.ending.delete(ending));
        }
        return ended;
      },
    };
  }

  /**
   * Ends the turns a previous host left open (it stopped mid-turn), with the workspace as this host finds it: their
   * review then shows what the agent did up to the stop, rather than a turn that runs forever. Call once, at start,
   * before any turn of this host begins.
   */
  async recoverOpenTurns(): Promise<void> {
    await Promise.all(this.store.openTurns().map((row) => this.handleOf(row.id).end()));
  }

  private async endTurn(turnId: string): Promise<void> {
    try {
      const row = this.requireTurn(turnId);
      const session = this.options.sessions.get(row.session_id);
      const after = await this.takeSnapshot(session, turnId, 'after');
      const before = this.store.snapshot(row.before_snapshot);
      let files = 0;
      // Usually nothing was snapshotted in between: what the "after" snapshot counted is the turn's count.
      if (after.previous === row.before_snapshot) files = after.files_changed;
      else if (before?.tree && after.tree && before.tree !== after.tree) {
        const engine = await this.workspaces.engine(session.workspace);
        files = (await engine.changedFiles(before.tree, after.tree)).length;
      }
      this.store.endTurn(turnId, this.now(), after.id, files);
      this.fire(this.requireTurn(turnId));
    } catch (error) {
      this.options.log.error(`changes: turn ${turnId} could not be ended:`, error);
    }
  }

  /**
   * Takes a snapshot of the session's workspace and records it; the session's very first is its 'start'. A failure
   * is recorded too (tree NULL, the reason in `error`) and logged: the turn goes on, its review says why there is none.
   */
  private takeSnapshot(session: Session, turnId: string, moment: 'before' | 'after'): Promise<SnapshotRow & { previous: string | null }> {
    return this.workspaces.serially(session.workspace, async () => {
      const first = !this.store.hasSnapshots(session.id);
      const previous = this.store.lastTakenSnapshot(session.id);
      const row: SnapshotRow = {
        id: newId('snap'),
        session_id: session.id,
        turn_id: first ? null : turnId,
        moment: first ? 'start' : moment,
        tree: null,
        error: null,
        taken_at: this.now(),
        files_changed: 0,
        skipped: '[]',
      };
      try {
        const engine = await this.workspaces.engine(session.workspace);
        const { tree, skipped } = await engine.snapshot();
        row.tree = tree;
        row.skipped = JSON.stringify(skipped);
        if (previous?.tree && previous.tree !== tree) row.files_changed = (await engine.changedFiles(previous.tree, tree)).length;
      } catch (error) {
        this.options.log.error(`changes: the snapshot of ${session.workspace} failed:`, error);
        row.tree = null;
        row.files_changed = 0;
        row.error = this.options.scrubber.scrubText(messageOf(error)) || 'the snapshot failed';
      }
      this.store.insertSnapshot(row);
      return { ...row, previous: row.tree && previous?.tree ? previous.id : null };
    });
  }

  // ---- what the UI reads and does ----

  turns(sessionId: string): ChangeTurn[] {
    this.options.sessions.get(sessionId);
    return this.store.turns(sessionId).map((row) => this.turnOf(row));
  }

  turn(turnId: string, scope?: ChangesScope): ChangeTurn {
    return this.turnOf(this.requireTurn(turnId, scope));
  }

  async files(turnId: string, scope?: ChangesScope): Promise<{ files: ChangedFile[]; skipped: SkippedFile[] }> {
    const review = await this.review(turnId, scope);
    const changed = await review.engine.changedFiles(review.from, review.to);
    const verdicts = new Map(this.store.verdicts(turnId).filter((v) => v.hunk === FILE_VERDICT).map((v) => [v.path, v.verdict]));
    return { files: changed.map((file) => ({ ...file, verdict: verdicts.get(file.path) ?? 'pending' })), skipped: review.skipped };
  }

  async diff(turnId: string, path: string, scope?: ChangesScope): Promise<FileDiff> {
    reviewPath(path);
    const review = await this.review(turnId, scope);
    await this.requireChanged(review, path);
    return this.mergedDiff(review, path);
  }

  /**
   * Accepts or rejects a hunk or a whole file. A reject first puts that part back on disk as it was before the turn
   * (the engine), then the verdict is stored with its ledger entry; an accept is stored. A rejected part cannot be
   * accepted again (it is gone from disk): restoring the snapshot after the turn brings it back.
   */
  async verdict(
    request: { turnId: string; path: string; hunk?: number; verdict: 'accepted' | 'rejected' },
    actor: string,
    scope?: ChangesScope,
  ): Promise<FileDiff> {
    const { turnId, path, hunk, verdict } = request;
    reviewPath(path);
    const review = await this.review(turnId, scope);
    if (review.running) throw new DomainError('state', 'this turn is still running; review it once it has ended');
    await this.requireChanged(review, path);
    const current = await this.mergedDiff(review, path);
    if (hunk !== undefined && hunk >= current.hunks.length) {
      const has = current.hunks.length === 0 ? 'has no hunks (it is binary or empty): give the verdict on the whole file' : `has hunks 0 to ${current.hunks.length - 1}`;
      throw new DomainError('invalid_input', `hunk ${hunk}: ${path} ${has}`, { issues: [{ path: 'hunk', message: has }] });
    }
    const targets = hunk === undefined ? current.hunks : [current.hunks[hunk]];
    const wasRejected = hunk === undefined ? current.hunks.length === 0 && current.file.verdict === 'rejected' : targets[0].verdict === 'rejected';
    if (verdict === 'accepted' && wasRejected) {
      throw new DomainError('state', `${hunk === undefined ? path : `hunk ${hunk} of ${path}`} was rejected and is back on disk as before the turn; to have it again, restore the snapshot after the turn`);
    }
    const changing = targets.filter((h) => h.verdict === 'pending' || (verdict === 'rejected' && h.verdict === 'accepted'));
    if (verdict === 'rejected') {
      const alreadyOnDisk = hunk === undefined ? current.file.verdict === 'rejected' : targets[0].verdict === 'rejected';
      if (!alreadyOnDisk) {
        await this.workspaces.serially(review.session.workspace, () =>
          hunk === undefined ? review.engine.rejectFile(review.from, review.to, path) : review.engine.rejectHunk(review.from, review.to, path, hunk),
        );
      }
    }
    const hunkVerdicts = new Map<number, HunkVerdict>(current.hunks.map((h) => [h.index, h.verdict]));
    for (const h of changing) hunkVerdicts.set(h.index, verdict);
    const fileVerdict = current.hunks.length === 0 ? verdict : fileVerdictOf([...hunkVerdicts.values()]);
    const at = this.now();
    this.options.ledger.transact(() => {
      for (const h of changing) this.store.setVerdict(turnId, path, h.index, verdict, at);
      this.store.setVerdict(turnId, path, FILE_VERDICT, fileVerdict, at);
      this.options.ledger.append({
        type: verdict === 'rejected' ? 'changes.reject' : 'changes.accept',
        actor,
        sessionId: review.row.session_id,
        payload: { turnId, before: review.row.before_snapshot, after: review.row.after_snapshot, path, hunk: hunk ?? null, hunks: changing.length },
      });
    });
    this.fire(review.row);
    return this.mergedDiff(review, path);
  }

  timeline(sessionId: string): Snapshot[] {
    this.options.sessions.get(sessionId);
    return this.store.timeline(sessionId).map(toSnapshot);
  }

  async restorePlan(snapshotId: string, scope?: ChangesScope): Promise<RestorePlan> {
    const target = this.restorable(snapshotId, scope);
    const session = this.options.sessions.get(target.session_id);
    const engine = await this.workspaces.engine(session.workspace);
    // The workspace as it is now, in the shadow store only: the plan touches nothing of the workspace.
    const files = await this.workspaces.serially(session.workspace, async () => engine.restorePlan((await engine.snapshot()).tree, target.tree!, { targetSkipped: skippedOf(target) }));
    return { snapshot: snapshotId, files };
  }

  /**
   * Restores the workspace to a snapshot as a turn of its own ("you" acting, source `restore`): the snapshot before
   * it is what undoes it. Refused, touching nothing, when that snapshot cannot be taken. One ledger entry, also when
   * the restore fails partway (it then says so).
   */
  async restore(snapshotId: string, actor: string, scope?: ChangesScope): Promise<ChangeTurn> {
    const target = this.restorable(snapshotId, scope);
    const session = this.options.sessions.get(target.session_id);
    const title = `Restore to ${toSnapshot({ ...target, ...this.turnLabel(target.turn_id) }).title || target.moment} (${new Date(target.taken_at).toISOString()})`;
    const { row, before } = await this.openTurn(session.id, { kind: 'restore', id: snapshotId }, 'you', title);
    let plan: RestorePlan['files'] = [];
    let failure: unknown;
    try {
      if (!before.tree) {
        throw new DomainError('unavailable', `the workspace could not be snapshotted before the restore (${before.error}), so it could not be undone: nothing was changed`);
      }
      const engine = await this.workspaces.engine(session.workspace);
      await this.workspaces.serially(session.workspace, async () => {
        plan = await engine.restorePlan(before.tree!, target.tree!, { targetSkipped: skippedOf(target) });
        await engine.restore(target.tree!, plan);
      });
    } catch (error) {
      failure = error;
    }
    await this.handleOf(row.id).end();
    const count = (action: string) => plan.filter((f) => f.action === action).length;
    this.options.ledger.append({
      type: 'changes.restore',
      actor,
      sessionId: session.id,
      payload: {
        snapshotId,
        turnId: row.id,
        before: before.id,
        files: plan.length,
        restored: count('restore'),
        deleted: count('delete'),
        recreated: count('recreate'),
        ...(failure === undefined ? {} : { failed: messageOf(failure) }),
      },
    });
    if (failure !== undefined) throw failure;
    return this.turn(row.id);
  }

  /**
   * Waits for the turns still ending (their "after" snapshots), the work queued on the workspaces (a prepare, say) and
   * the engines' background work, then stops reporting.
   */
  async dispose(): Promise<void> {
    await Promise.allSettled([...this.ending]);
    await this.workspaces.settled();
    this.changed.dispose();
  }

  // ---- helpers ----

  private requireTurn(turnId: string, scope?: ChangesScope): TurnRow {
    const row = this.store.turn(turnId);
    if (!row || (scope && row.session_id !== scope.sessionId)) {
      throw new DomainError('not_found', `there is no turn ${turnId}${scope ? ' in this session' : ''}; changes.turns lists the session's turns`);
    }
    return row;
  }

  private restorable(snapshotId: string, scope?: ChangesScope): SnapshotRow {
    const row = this.store.snapshot(snapshotId);
    if (!row || (scope && row.session_id !== scope.sessionId)) {
      throw new DomainError('not_found', `there is no snapshot ${snapshotId}${scope ? ' in this session' : ''}; changes.timeline lists the session's snapshots`);
    }
    if (!row.tree) throw new DomainError('unavailable', `snapshot ${snapshotId} was never taken (${row.error}); pick another one on the timeline`);
    return row;
  }

  private turnLabel(turnId: string | null): { agent: string | null; title: string | null } {
    const turn = turnId === null ? undefined : this.store.turn(turnId);
    return { agent: turn?.agent ?? null, title: turn?.title ?? null };
  }

  /** The turn's two trees (the workspace now, for a running turn), or why it has no review. */
  private async review(turnId: string, scope?: ChangesScope): Promise<Review> {
    const row = this.requireTurn(turnId, scope);
    const session = this.options.sessions.get(row.session_id);
    const before = this.store.snapshot(row.before_snapshot);
    const after = row.after_snapshot === null ? undefined : this.store.snapshot(row.after_snapshot);
    for (const [moment, snapshot] of [['before', before], ['after', after]] as const) {
      if (snapshot && !snapshot.tree) {
        throw new DomainError(
          'unavailable',
          `this turn has no review: the workspace could not be snapshotted ${moment} it (${snapshot.error}). Check that git is installed and the app home is writable; the host log says more`,
        );
      }
    }
    const engine = await this.workspaces.engine(session.workspace);
    const to = after ? after.tree! : (await this.workspaces.serially(session.workspace, () => engine.snapshot())).tree;
    const skipped = new Map<string, SkippedFile>();
    for (const snapshot of [before, after]) for (const file of snapshot ? skippedOf(snapshot) : []) skipped.set(file.path, file);
    return { row, session, engine, from: before!.tree!, to, running: !after, skipped: [...skipped.values()] };
  }

  private async requireChanged(review: Review, path: string): Promise<void> {
    const changed = await review.engine.changedFiles(review.from, review.to);
    if (!changed.some((file) => file.path === path)) {
      throw new DomainError('not_found', `the turn did not change "${path}"; changes.files lists the files it changed`);
    }
  }

  /** The file's diff in the turn with the stored verdicts of the file and of each hunk. */
  private async mergedDiff(review: Review, path: string): Promise<FileDiff> {
    const { file, hunks } = await review.engine.fileDiff(review.from, review.to, path);
    const rows = this.store.fileVerdicts(review.row.id, path);
    const byHunk = new Map(rows.filter((v) => v.hunk !== FILE_VERDICT).map((v) => [v.hunk, v.verdict as HunkVerdict]));
    const fileVerdict = rows.find((v) => v.hunk === FILE_VERDICT)?.verdict ?? 'pending';
    return { file: { ...file, verdict: fileVerdict }, hunks: hunks.map((h) => ({ ...h, verdict: byHunk.get(h.index) ?? 'pending' })) };
  }

  private turnOf(row: TurnRow): ChangeTurn {
    const files = this.store.verdicts(row.id).filter((v) => v.hunk === FILE_VERDICT).map((v) => v.verdict);
    return toTurn(row, turnVerdictOf(files, row.files_changed, row.ended_at !== null));
  }

  private fire(row: TurnRow): void {
    this.changed.fire(this.turnOf(this.store.turn(row.id) ?? row));
  }
}
