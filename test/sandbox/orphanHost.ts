// A host for limits.test.ts: starts an agent that loops forever, prints its pid, and waits to be killed.
import { guestWith } from './guests';
import { invokeInput, sandboxHarness } from './harness';

async function main(): Promise<void> {
  const h = sandboxHarness({ warmProcesses: 0 });
  const { agent } = await h.run(guestWith('(loop $forever (br $forever))'), [], h.dir, { deadlineMs: 600_000 });
  void agent.invoke(invokeInput()).catch(() => undefined);
  process.stdout.write(`agent pid ${agent.pid} dir ${h.dir}\n`);
  setInterval(() => undefined, 1000);
}

void main();
