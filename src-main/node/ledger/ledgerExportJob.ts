import type { LedgerExportEvent } from '../../../src-preload/contract';
import type { StreamSink } from '../../../src-preload/rpc';
import type { HostLog } from '../base/hostLog';
import type { HostKeychain } from '../vault/hostKeychain';
import { openDatabaseReadOnly } from '../store/database';
import type { Ledger } from './ledger';
import { exportLedger, newExportPath, type ExportOptions } from './ledgerExport';
import { ledgerFileIdentity } from './ledgerRecord';
import { keychainTrust } from './ledgerTrust';

export interface LedgerExportJob {
  home: string;
  databaseFile: string;
  ledger: Ledger;
  keychain: Promise<HostKeychain>;
  /** Settles once signing has started or been refused: the end line is signed only where checkpoints are. */
  signing: Promise<void>;
  log: HostLog;
}

/**
 * One `ledger.export` as the UI asks for it: progress events, then `done` with the summary, or the stream ends with
 * the error. Aborting stops it between slices (the partial file is removed).
 */
export async function runLedgerExport(job: LedgerExportJob, request: ExportOptions, sink: StreamSink<LedgerExportEvent>, signal: AbortSignal): Promise<void> {
  const { ledger, log } = job;
  // The end line is signed only if what is written out verifies against the keychain's key and record (read
  // first, as for verify).
  await job.signing;
  const { keychain } = await job.keychain;
  const signer = ledger.signer;
  ledger.flush();
  let signEnd;
  try {
    const file = ledgerFileIdentity(job.databaseFile);
    signEnd = signer && keychain ? { key: signer, trust: await keychainTrust(keychain, { file, ledgerId: ledger.ledgerId }) } : undefined;
  } catch (error) {
    log.error('ledger export: the keychain record could not be read, so the end line is not signed:', error);
  }
  // A read-only snapshot: the file is one consistent state of the ledger however long the export takes.
  const snapshot = openDatabaseReadOnly(job.databaseFile);
  try {
    const summary = await exportLedger(snapshot, newExportPath(job.home, request.sessionId, new Date()), request, {
      onProgress: ({ written, total }) => sink.push({ kind: 'progress', written, total }),
      signal,
      ...(signEnd ? { signEnd } : {}),
    });
    if (!summary.signed) log.error(`ledger export ${summary.file}: its end line is not signed (${summary.unsignedWhy}); it verifies without --key only`);
    const { file, entries, redacted, elided, checkpoints, bytes } = summary;
    sink.push({ kind: 'done', file, entries, redacted, elided, checkpoints, bytes });
    sink.end();
  } catch (error) {
    // A LedgerExportError is a DomainError the user can act on; anything else the edge logs and calls internal.
    sink.end(error instanceof Error ? error : new Error(String(error)));
  } finally {
    snapshot.close();
  }
}
