// A spent "Allow once" (issue 23 item 6): listed as in flight while its run goes on, gone from the list when the run
// ends (retireUsed), and never back after a restart (the run that spent it ended with the host). Live and timed
// grants are untouched by both.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGENT, openConsent, SESSION } from './consentFixture';

describe('a spent "Allow once" leaves the grants list with its run', () => {
  it('retireUsed takes out the used once-grants of the run and leaves live and timed ones', (t) => {
    const { engine } = openConsent(t);
    const spent = engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'files.read', scope: '**', durationS: null }, 'user');
    const unused = engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'memory', durationS: null }, 'user');
    const timed = engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'files.write', scope: 'out/**', durationS: 600 }, 'user');
    assert.equal(engine.check({ agentId: AGENT, sessionId: SESSION, capability: 'files.read', target: 'a.txt' }).decision, 'allow');
    assert.equal(engine.check({ agentId: AGENT, sessionId: SESSION, capability: 'files.write', target: 'out/x' }).decision, 'allow');
    assert.deepEqual(
      engine.list(SESSION).map((g) => [g.id, g.status]),
      [
        [spent.id, 'used'],
        [unused.id, 'live'],
        [timed.id, 'live'],
      ],
    );
    const changes: string[] = [];
    engine.onDidChangeGrant((c) => changes.push(`${c.kind} ${c.grant.id}`));
    engine.retireUsed([spent.id, unused.id, timed.id]);
    assert.deepEqual(
      engine.list(SESSION).map((g) => g.id),
      [unused.id, timed.id],
    );
    assert.deepEqual(changes, [`spent ${spent.id}`], 'the panel hears that the used grant left');
  });

  it('a used once-grant does not come back after a restart; an unused one does', (t) => {
    const fixture = openConsent(t);
    const spent = fixture.engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'files.read', scope: '**', durationS: null }, 'user');
    const unused = fixture.engine.grant({ agentId: AGENT, sessionId: SESSION, capability: 'memory', durationS: null }, 'user');
    fixture.engine.check({ agentId: AGENT, sessionId: SESSION, capability: 'files.read', target: 'a.txt' });
    assert.equal(fixture.engine.list(SESSION).length, 2);
    fixture.reopen();
    assert.deepEqual(
      fixture.engine.list(SESSION).map((g) => g.id),
      [unused.id],
    );
    assert.notEqual(spent.id, unused.id);
  });
});
