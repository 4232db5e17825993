import type { Migration } from '../migration';

export const v05LedgerActorFilter: Migration = {
  version: 5,
  name: 'ledger view: filter by actor',
  // The view filters and lists actors like it does sessions and types: an (actor, seq) index serves both the
  // filter inside a seq window and the distinct-actor menu (one index seek per actor instead of a full scan).
  // Time and text filters scan seq windows instead (see ledger/ledgerQuery.ts for the measurements).
  sql: `
    CREATE INDEX audit_ledger_by_actor ON audit_ledger (actor, seq);
  `,
};
