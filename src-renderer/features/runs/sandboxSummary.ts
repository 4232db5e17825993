import type { SandboxReport } from '../../../src-preload/contract';

/** The one line the Runs panel shows about the machine's sandbox; the details list each limit. */
export function sandboxSummary(report: SandboxReport): string {
  if (!report.usable) return 'Agents’ commands cannot run on this machine: the sandbox is not available';
  const enforced = report.items.filter((item) => item.enforced).length;
  return `Agents’ commands run sandboxed: ${enforced} of ${report.items.length} limits enforced on this machine`;
}
