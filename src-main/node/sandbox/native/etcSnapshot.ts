import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The /etc a sandboxed command sees: a copy of only what a shell, coreutils, python, node, git and TLS clients need
 * (not /etc/shadow, /etc/ssh's host keys, /etc/ssl/private, or tool configs that may hold tokens such as
 * /etc/npmrc), made once per sandbox instance and bound read-only as /etc in one mount: binding each entry on its
 * own costs a mount per entry at every run (about a millisecond each here). Changes to /etc reach runs after the
 * app restarts.
 */
export const ETC_ENTRIES = [
  'alternatives', 'bash.bashrc', 'debian_version', 'os-release', 'lsb-release', 'gai.conf', 'group', 'host.conf', 'hostname',
  'hosts', 'inputrc', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'locale.alias', 'locale.conf', 'localtime', 'magic', 'magic.mime',
  'mime.types', 'nsswitch.conf', 'passwd', 'profile', 'protocols', 'resolv.conf', 'services', 'shells', 'terminfo', 'timezone',
  'perl', 'python3', 'ssl/certs', 'ssl/openssl.cnf', 'ca-certificates', 'pki/tls/certs', 'pki/ca-trust', 'crypto-policies', 'environment',
];

function copyEntry(source: string, target: string): void {
  const stat = lstatSync(source);
  mkdirSync(dirname(target), { recursive: true });
  if (stat.isSymbolicLink()) {
    // A link into /usr stays a link (it resolves inside the sandbox too); one elsewhere (resolv.conf → /run/...)
    // becomes a copy of what it points at.
    const real = realpathSync(source);
    if (real.startsWith('/usr/')) symlinkSync(real, target);
    else if (lstatSync(real).isDirectory()) cpSync(real, target, { recursive: true, verbatimSymlinks: true });
    else writeFileSync(target, readFileSync(real), { mode: lstatSync(real).mode & 0o777 });
    return;
  }
  cpSync(source, target, { recursive: true, verbatimSymlinks: true });
}

/** Builds the snapshot under `parent` and returns its path. Entries that are missing or unreadable are left out. */
export function buildEtcSnapshot(parent: string): string {
  const dir = mkdtempSync(join(parent, `omni-native-etc-${process.pid}-`));
  for (const entry of ETC_ENTRIES) {
    try {
      copyEntry(join('/etc', entry), join(dir, entry));
    } catch {
      // not on this system, or not readable by this user
    }
  }
  return dir;
}
