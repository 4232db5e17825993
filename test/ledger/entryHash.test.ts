import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { DOMAIN_TAG, entryHash, GENESIS_HASH, newSalt, payloadCommit, type ChainFields } from '../../src-main/node/ledger/entryHash';
import { RowChainer } from '../../src-main/node/ledger/rowChainer';

// The chain written out from its definition, one field at a time, with nothing shared with entryHash.ts but the
// domain tag: the fast implementation must give these bytes for every input.
const u32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
const i64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64BE(BigInt(n));
  return b;
};
const str = (text: string): Buffer => Buffer.concat([u32(Buffer.byteLength(text)), Buffer.from(text)]);

function specEntryHash(f: ChainFields): Buffer {
  const session = f.sessionId === null ? Buffer.from([0]) : Buffer.concat([Buffer.from([1]), str(f.sessionId)]);
  const preimage = Buffer.concat([DOMAIN_TAG, i64(f.seq), i64(f.ts), str(f.type), str(f.actor), session, f.payloadCommit, f.prevHash]);
  return createHash('sha256').update(preimage).digest();
}

const specPayloadCommit = (salt: Buffer, payload: string): Buffer => createHash('sha256').update(salt).update(payload, 'utf8').digest();

test('payload commitments and entry hashes are the bytes the chain defines, for short, long and non-ASCII fields', () => {
  // 64 characters and fewer are copied by hand while ASCII: both sides of that bound, and a non-ASCII last one.
  const texts = ['', 'a', 'exec.spawn', 'agent-élan ✓', 'z'.repeat(64), `${'z'.repeat(63)}é`, 'z'.repeat(65), '😀'.repeat(40), 'x'.repeat(5000), 'y'.repeat(70_000)];
  let prevHash: Buffer = GENESIS_HASH;
  const digests: { digest: Buffer; copy: Buffer }[] = [];
  for (let i = 0; i < 3000; i++) {
    const text = texts[i % texts.length];
    const salt = newSalt();
    const payload = JSON.stringify({ i, text: texts[(i * 3) % texts.length] });
    const commit = payloadCommit(salt, payload);
    assert.deepEqual(commit, specPayloadCommit(salt, payload), `commitment of entry ${i}`);
    const fields: ChainFields = {
      seq: i + 1,
      ts: i % 2 ? 1_700_000_000_000 + i : -i,
      type: text || 'type',
      actor: texts[(i + 1) % texts.length],
      sessionId: i % 3 === 0 ? null : texts[(i + 2) % texts.length],
      payloadCommit: commit,
      prevHash,
    };
    const hash = entryHash(fields);
    assert.deepEqual(hash, specEntryHash(fields), `entry ${i}`);
    digests.push({ digest: hash, copy: Buffer.from(hash) }, { digest: commit, copy: Buffer.from(commit) });
    prevHash = hash;
  }
  // Digests handed out earlier never change, however many come after them.
  for (const { digest, copy } of digests) assert.deepEqual(digest, copy);
});

test('seq and ts beyond 32 bits are encoded in full', () => {
  const fields: ChainFields = { seq: 2 ** 40 + 7, ts: 2 ** 52 + 1, type: 't', actor: 'a', sessionId: 's', payloadCommit: GENESIS_HASH, prevHash: GENESIS_HASH };
  assert.deepEqual(entryHash(fields), specEntryHash(fields));
  assert.throws(() => entryHash({ ...fields, seq: 2 ** 53 }), /safe integers/);
});

test("the writer's chained rows hold the bytes the chain defines: commitment, previous hash, entry hash and a fresh salt", () => {
  const texts = ['', 'a', 'exec.spawn', 'agent-élan ✓', 'z'.repeat(64), `${'z'.repeat(63)}é`, '😀'.repeat(40), 'x'.repeat(5000), 'y'.repeat(70_000)];
  const chain = new RowChainer();
  let prevHash = Buffer.alloc(32, 0xab);
  chain.startAfter(prevHash);
  const salts = new Set<string>();
  for (let i = 0; i < 2000; i++) {
    const payload = JSON.stringify({ i, text: texts[(i * 3) % texts.length] });
    const sessionId = i % 3 === 0 ? null : texts[(i + 2) % texts.length];
    const type = texts[i % texts.length] || 'type';
    const actor = texts[(i + 1) % texts.length];
    const ts = i % 2 ? 1_700_000_000_000 + i : -i;
    chain.next(i + 1, ts, type, actor, sessionId, payload);
    assert.deepEqual(chain.payloadCommit, specPayloadCommit(chain.salt, payload), `commitment of entry ${i}`);
    assert.deepEqual(chain.prevHash, prevHash, `previous hash of entry ${i}`);
    const fields: ChainFields = { seq: i + 1, ts, type, actor, sessionId, payloadCommit: Buffer.from(chain.payloadCommit), prevHash };
    assert.deepEqual(chain.entryHash, specEntryHash(fields), `entry ${i}`);
    salts.add(chain.salt.toString('hex'));
    prevHash = Buffer.from(chain.entryHash);
  }
  assert.equal(salts.size, 2000, 'every entry gets a salt of its own');
});
