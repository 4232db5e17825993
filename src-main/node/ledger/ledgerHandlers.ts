import type { ledgerContract } from '../../../src-preload/contract/ledger';
import type { Handlers } from '../../../src-preload/rpc';
import type { HostKeychain } from '../vault/hostKeychain';
import { runLedgerExport, type LedgerExportJob } from './ledgerExportJob';
import type { LedgerQuery } from './ledgerQuery';
import { ledgerFileIdentity } from './ledgerRecord';
import { keychainTrust } from './ledgerTrust';
import { verifyStoredLedger } from './verifyStoredLedger';

export interface LedgerHandlerServices extends LedgerExportJob {
  query: LedgerQuery;
  keychain: Promise<HostKeychain>;
}

/** The `ledger.*` calls and streams: the ledger view's pages and facets, verify, export and the live tail. */
export function createLedgerHandlers(services: LedgerHandlerServices): Handlers<typeof ledgerContract> {
  const { ledger, query, databaseFile } = services;
  return {
    'ledger.list': ({ sessionId, beforeSeq, limit }) => ledger.list({ sessionId, beforeSeq, limit }),
    // The ledger view's queries read the committed table; appends still queued show up with the next tail event.
    'ledger.query': (request) => query.page(request),
    'ledger.count': (request) => query.count(request),
    'ledger.facets': () => query.facets(),
    'ledger.entry': ({ seq }) => query.entry(seq),
    'ledger.verify': async () => {
      const { keychain, problem } = await services.keychain;
      await services.signing;
      ledger.flush();
      // Trust first, then checkpoints, then entries: each read sees at least what the one before vouched for.
      const trust = await keychainTrust(keychain, { file: ledgerFileIdentity(databaseFile), ledgerId: ledger.ledgerId }, problem ?? undefined);
      // Read-only connections of its own (worker threads on a large ledger): appends go on while it runs.
      return verifyStoredLedger(databaseFile, trust);
    },
    'ledger.export': (request, sink) => {
      const abort = new AbortController();
      void runLedgerExport(services, request, sink, abort.signal);
      return { dispose: () => abort.abort() };
    },
    'ledger.tail': ({ afterSeq }, sink) => {
      // Catch up from storage first, then follow live appends; seq order is kept because both run synchronously.
      let last = afterSeq;
      for (let batch = ledger.after(last, 1000); batch.length > 0; batch = ledger.after(last, 1000)) {
        for (const entry of batch) sink.push(entry);
        last = batch[batch.length - 1].seq;
      }
      return ledger.onDidAppend((entry) => {
        if (entry.seq > last) sink.push(entry);
      });
    },
  };
}
