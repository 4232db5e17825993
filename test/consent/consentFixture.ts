import type { TestContext } from 'node:test';
import { join } from 'node:path';
import type { ConsentPrompt, LedgerEntry } from '../../src-preload/contract';
import type { ConsentChannel } from '../../src-main/node/consent/consentChannel';
import { ConsentEngine, type ConsentEngineOptions } from '../../src-main/node/consent/consentEngine';
import { Ledger } from '../../src-main/node/ledger/ledger';
import { openDatabase, type Database } from '../../src-main/node/store/database';
import { tempDir } from '../helpers';
import { FakeClock } from './fakeClock';

export const AGENT = 'scaffolder';
export const SESSION = 'ses_consentTest01';

/** A consent engine on a real SQLite file with the real ledger, driven by a fake clock; reopen() is a restart. */
export interface ConsentFixture {
  engine: ConsentEngine;
  ledger: Ledger;
  db: Database;
  clock: FakeClock;
  /** Committed ledger entries, oldest first, optionally of one type. */
  entries(type?: string): LedgerEntry[];
  reopen(): void;
}

export function openConsent(t: TestContext, options: Omit<ConsentEngineOptions, 'clock'> = {}): ConsentFixture {
  const dir = tempDir('consent');
  const file = join(dir.path, 'memory', 'sessions.db');
  const clock = new FakeClock();
  const open = () => {
    const db = openDatabase(file);
    const ledger = new Ledger(db, { now: () => clock.now() });
    const engine = new ConsentEngine(db, ledger, { clock, ...options });
    return { db, ledger, engine };
  };
  const close = (parts: { db: Database; ledger: Ledger; engine: ConsentEngine }) => {
    parts.engine.dispose();
    parts.ledger.dispose();
    parts.db.close();
  };
  let parts = open();
  const fixture: ConsentFixture = {
    get engine() {
      return parts.engine;
    },
    get ledger() {
      return parts.ledger;
    },
    get db() {
      return parts.db;
    },
    clock,
    entries(type) {
      const all = parts.ledger.after(0, 1_000_000);
      return type ? all.filter((e) => e.type === type) : all;
    },
    reopen() {
      close(parts);
      parts = open();
    },
  };
  t.after(() => {
    close(parts);
    dir.cleanup();
  });
  return fixture;
}

/** A channel that records each prompt and answers with whatever `answer` returns (a value, a promise, a throw). */
export class ScriptedChannel implements ConsentChannel {
  readonly prompts: ConsentPrompt[] = [];
  readonly signals: AbortSignal[] = [];

  constructor(private readonly answer: (prompt: ConsentPrompt) => unknown) {}

  prompt(prompt: ConsentPrompt, signal: AbortSignal): Promise<unknown> {
    this.prompts.push(prompt);
    this.signals.push(signal);
    return Promise.resolve(this.answer(prompt));
  }
}

/** A promise settled from outside, for answers the test gives later. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
