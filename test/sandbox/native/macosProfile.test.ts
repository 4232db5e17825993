import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { macosProfile, sbplString } from '../../../src-main/node/sandbox/native/macosProfile';

describe('macOS sandbox-exec profile', () => {
  const base = { workspace: '/Users/ada/project', tmpDir: '/private/var/folders/x/omni-run', hiddenPaths: ['/Users/ada/.ssh', '/Users/ada/.aws'] };

  it('denies by default, writes only the workspace and the run temp dir, never .meta', () => {
    const profile = macosProfile({ ...base, proxyPort: null });
    const lines = profile.trim().split('\n');
    assert.equal(lines[0], '(version 1)');
    assert.equal(lines[1], '(deny default)');
    assert.ok(lines.includes('(allow file-write* (subpath "/Users/ada/project") (subpath "/private/var/folders/x/omni-run") (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/fd/"))'));
    assert.ok(lines.includes('(deny file-write* (subpath "/Users/ada/project/.meta"))'));
    assert.equal(lines.filter((l) => l.startsWith('(allow file-write*')).length, 1, 'no other write rule');
  });

  it('hides the secrets places from reads, after the general read rule (later rules win)', () => {
    const lines = macosProfile({ ...base, proxyPort: null }).split('\n');
    const read = lines.indexOf('(allow file-read*)');
    const hidden = lines.indexOf('(deny file-read* (subpath "/Users/ada/.ssh") (subpath "/Users/ada/.aws"))');
    assert.ok(read >= 0 && hidden > read);
  });

  it('has no network without a grant, and only the proxy port with one', () => {
    assert.doesNotMatch(macosProfile({ ...base, proxyPort: null }), /network/);
    const granted = macosProfile({ ...base, proxyPort: 41234 });
    assert.match(granted, /^\(allow network-outbound \(remote tcp "localhost:41234"\)\)$/m);
    assert.equal(granted.match(/network/g)?.length, 1);
    assert.throws(() => macosProfile({ ...base, proxyPort: 70000 }), /bad proxy port/);
  });

  it('quotes paths so a crafted folder name cannot add rules', () => {
    assert.equal(sbplString('/Users/a "b"\\c'), '"/Users/a \\"b\\"\\\\c"');
    const profile = macosProfile({ ...base, workspace: '/Users/ada/x")) (allow default) ((' , proxyPort: null });
    assert.doesNotMatch(profile, /^\(allow default\)/m);
    assert.match(profile, /\(subpath "\/Users\/ada\/x\\"\)\) \(allow default\) \(\("\)/);
    assert.throws(() => sbplString('/Users/a\nb'), /control characters/);
  });
});
