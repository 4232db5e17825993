import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, watch, writeFileSync, type FSWatcher } from 'node:fs';
import { join } from 'node:path';

/** What a second instance tells the first (Electron's 'second-instance' arguments). */
export interface SecondInstanceNotice {
  argv: string[];
  workingDirectory: string;
  additionalData: unknown;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * app.requestSingleInstanceLock across processes, synchronous like Electron's: the lock is a file in the userData
 * folder holding the owner's pid (a dead owner's lock is taken over). A second instance drops its notice into the
 * owner's inbox folder and is told "no"; the owner watches that folder and reports each notice.
 */
export class SingleInstanceLock {
  private watcher: FSWatcher | undefined;
  private poll: NodeJS.Timeout | undefined;
  private held = false;

  constructor(private readonly userData: string) {}

  private get lockFile(): string {
    return join(this.userData, 'StandInSingletonLock');
  }

  private get inbox(): string {
    return join(this.userData, 'StandInSingletonInbox');
  }

  get isHeld(): boolean {
    return this.held;
  }

  request(notice: SecondInstanceNotice, onNotice: (notice: SecondInstanceNotice) => void): boolean {
    if (this.held) return true;
    mkdirSync(this.inbox, { recursive: true });
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        writeFileSync(this.lockFile, String(process.pid), { flag: 'wx' });
        this.held = true;
        this.listen(onNotice);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const owner = Number(readFileSync(this.lockFile, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        const file = join(this.inbox, `${process.pid}-${Date.now()}.json`);
        writeFileSync(`${file}.tmp`, JSON.stringify(notice));
        renameSync(`${file}.tmp`, file);
        return false;
      }
      unlinkSync(this.lockFile);
    }
    return false;
  }

  private listen(onNotice: (notice: SecondInstanceNotice) => void): void {
    const drain = (): void => {
      if (!existsSync(this.inbox)) return;
      for (const name of readdirSync(this.inbox).filter((n) => n.endsWith('.json'))) {
        const file = join(this.inbox, name);
        try {
          const notice = JSON.parse(readFileSync(file, 'utf8')) as SecondInstanceNotice;
          unlinkSync(file);
          onNotice(notice);
        } catch {
          // Half-written or already taken: the next round sees it again or not at all.
        }
      }
    };
    this.watcher = watch(this.inbox, () => drain());
    this.watcher.unref();
    // fs.watch may miss events on some file systems; a slow poll backs it up.
    this.poll = setInterval(drain, 200);
    this.poll.unref();
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.watcher?.close();
    clearInterval(this.poll);
    try {
      if (readFileSync(this.lockFile, 'utf8') === String(process.pid)) unlinkSync(this.lockFile);
    } catch {
      // Already gone.
    }
  }
}
