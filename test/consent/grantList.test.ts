// The grants panel's list as the host keeps it live (consent.watchGrants): a granted or used grant is (still) listed;
// a once-grant whose run has ended (spent), a revoked and an expired one leave it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConsentGrant } from '../../src-preload/contract';
import { grantListChange, isListedGrant } from '../../src-main/node/consent/grantList';
import { grantWithStatus as grant } from './grantFixture';

test('granted and used grants stay listed; spent, revoked and expired ones leave the list', () => {
  assert.deepEqual(grantListChange({ kind: 'granted', grant: grant('live') }), { kind: 'upsert', item: grant('live') });
  assert.deepEqual(grantListChange({ kind: 'used', grant: grant('used') }), { kind: 'upsert', item: grant('used') });
  assert.deepEqual(grantListChange({ kind: 'spent', grant: grant('used') }), { kind: 'remove', id: 'grant_abcdefgh' }, 'still "used", but its run is over');
  assert.deepEqual(grantListChange({ kind: 'revoked', grant: grant('revoked') }), { kind: 'remove', id: 'grant_abcdefgh' });
  assert.deepEqual(grantListChange({ kind: 'expired', grant: grant('expired') }), { kind: 'remove', id: 'grant_abcdefgh' });
  assert.deepEqual(['live', 'used', 'revoked', 'expired'].map((s) => isListedGrant(grant(s as ConsentGrant['status']))), [true, true, false, false]);
});
