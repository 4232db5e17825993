import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startEgressProxy, type EgressProxy } from './egressProxy';
import type { LaunchPolicy, NetworkRequestEvent, PreparedLaunch } from './launchPolicy';
import { macosProfile } from './macosProfile';
import { NativeSandboxUnavailableError } from './nativeSandboxErrors';
import { defaultSecretPaths } from './sandboxMounts';

/**
 * One run's launch on macOS: sandbox-exec with the generated profile, RLIMIT_CPU from a small sh, network only
 * through the allowlist proxy on 127.0.0.1. Written here but not run (no Mac in CI): what it cannot do yet —
 * staged writes, memory and process limits — is refused or left out of `enforced`, never pretended.
 */
export interface MacosLaunchContext {
  stagingRoot: string;
  appHome?: string;
  onNetworkRequest?(event: NetworkRequestEvent): void;
}

export async function prepareMacosLaunch(policy: LaunchPolicy, context: MacosLaunchContext): Promise<PreparedLaunch> {
  if (policy.stageWrites) {
    throw new NativeSandboxUnavailableError('overlay_unavailable', 'staged writes are not implemented on macOS yet', 'run without staged writes (see docs/native-sandbox.md for the plan)');
  }
  if (policy.localServices?.length) {
    throw new NativeSandboxUnavailableError('unsupported_platform', 'host services (localServices) are bridged only on Linux so far', 'run without localServices on macOS');
  }
  if (policy.writablePaths?.length) {
    throw new NativeSandboxUnavailableError('unsupported_platform', 'writable folders besides the workspace (writablePaths) are bound only on Linux so far', 'run without writablePaths on macOS');
  }
  const runDir = mkdtempSync(join(context.stagingRoot, `omni-native-${process.pid}-`));
  let proxy: EgressProxy | null = null;
  try {
    if (policy.network) {
      const grant = policy.network;
      proxy = await startEgressProxy({
        listen: { port: 0 },
        allowDomains: grant.allowDomains,
        label: policy.label,
        stillGranted: grant.stillGranted ? () => grant.stillGranted!() : undefined,
        onRequest: (event) => {
          grant.onRequest?.(event);
          context.onNetworkRequest?.(event);
        },
      });
    }
    const profile = macosProfile({
      workspace: policy.workspace,
      tmpDir: runDir,
      hiddenPaths: [...defaultSecretPaths(context.appHome), ...(policy.hiddenPaths ?? [])],
      proxyPort: proxy?.port ?? null,
    });
    const cpu = policy.resources.cpuSeconds;
    const argv = ['/bin/sh', '-c', 'if [ "$1" != - ]; then ulimit -t "$1" || exit 125; fi; shift; cd "$1" || exit 125; shift; exec "$@"', 'omni-sandbox', cpu ? String(cpu) : '-', policy.cwd,
      '/usr/bin/sandbox-exec', '-p', profile, '--', ...policy.argv];
    const env: Record<string, string> = { PATH: '/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin', HOME: runDir, TMPDIR: runDir, LANG: 'en_US.UTF-8', ...policy.env };
    if (proxy) for (const name of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY']) env[name] = `http://127.0.0.1:${proxy.port}`;
    const started = proxy;
    return {
      argv,
      env,
      cwd: policy.cwd,
      enforced: ['sandbox-exec', proxy ? 'network:allowlist-proxy' : 'network:none', ...(cpu ? ['rlimit:cpu'] : [])],
      dispose: () => {
        void started?.close();
        rmSync(runDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    void proxy?.close();
    rmSync(runDir, { recursive: true, force: true });
    throw error;
  }
}
