import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSession, expectConnected, saveScreenshot, visibleSessionView } from './appDriver';
import { expect, test } from './fixtures';

interface Wabt {
  parseWat(name: string, text: string): { toBinary(options: object): { buffer: Uint8Array }; destroy(): void };
}

/** The flood: this many log chunks of LINES_PER_CHUNK lines each. */
const LOG_CHUNKS = 100;
const LINES_PER_CHUNK = 1000;
const TOTAL_LOG_LINES = LOG_CHUNKS * LINES_PER_CHUNK;
/** A 2×2 PNG. */
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';

const outputs: { content_type: string; data: string; chunk_id: string }[] = [
  {
    content_type: 'text/markdown',
    data: '## Gallery\n\n- **bold** and `code`\n- <img src=x onerror="document.title=\'pwned\'"><script>document.title="pwned"</script>\n',
    chunk_id: 'notes',
  },
  { content_type: 'text/x-code;lang=ts', data: '/* a\n   comment */\nexport const answer: number = 42;\n', chunk_id: 'code' },
  { content_type: 'image/png', data: PNG_BASE64, chunk_id: 'picture' },
];
const logChunk = { content_type: 'text/x-log', data: Array.from({ length: LINES_PER_CHUNK }, () => 'a line of the flood').join('\n') + '\n', chunk_id: 'flood' };

/** A string as a WAT data literal, every byte escaped. */
const dataLiteral = (text: string): string => [...Buffer.from(text, 'utf8')].map((b) => `\\${b.toString(16).padStart(2, '0')}`).join('');

/**
 * A user agent written in WAT: its omni_invoke makes `calls` in order, then repeats `repeat.call` `repeat.times`
 * times. The responses are dropped: these agents only show things and ask.
 */
function guestWat(calls: { fn: string; req: unknown }[], repeat?: { call: { fn: string; req: unknown }; times: number }): string {
  let offset = 1024;
  const data: string[] = [];
  const place = (call: { fn: string; req: unknown }): string => {
    const json = JSON.stringify(call.req);
    const bytes = Buffer.byteLength(json);
    data.push(`(data (i32.const ${offset}) "${dataLiteral(json)}")`);
    const args = `(call $${call.fn} (i32.const ${offset}) (i32.const ${bytes}))`;
    offset += bytes;
    return args;
  };
  const body = calls.map((call) => `(drop ${place(call)})`);
  const repeated = repeat ? place(repeat.call) : '';
  if (offset > 65536) throw new Error('the requests must fit in the first page');
  const fns = [...new Set([...calls, ...(repeat ? [repeat.call] : [])].map((c) => c.fn))];
  return `(module
  ${fns.map((fn) => `(import "omni" "${fn}" (func $${fn} (param i32 i32) (result i64)))`).join('\n  ')}
  (memory (export "memory") 2)
  ${data.join('\n  ')}
  (global $heap (mut i32) (i32.const 65536))
  (func (export "omni_alloc") (param $len i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $heap))
    (global.set $heap (i32.add (global.get $heap) (local.get $len)))
    (block $ok
      (loop $more
        (br_if $ok (i32.le_u (global.get $heap) (i32.shl (memory.size) (i32.const 16))))
        (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1)) (then unreachable))
        (br $more)))
    (local.get $p))
  (func (export "omni_invoke") (param i32 i32)
    (local $i i32)
    ${body.join('\n    ')}
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (i32.const ${repeat?.times ?? 0})))
        (drop ${repeated || '(i64.const 0)'})
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))))`;
}

const SENSITIVE_ACTION = 'POST https://api.example.org/items';

async function installAgent(home: string, name: string, capabilities: string[], wat: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wabt = await (require('wabt') as () => Promise<Wabt>)();
  const parsed = wabt.parseWat(`${name}.wat`, wat);
  const binary = parsed.toBinary({}).buffer;
  parsed.destroy();
  const folder = join(home, 'agents', name);
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'agent.wasm'), binary);
  writeFileSync(
    join(folder, 'manifest.toml'),
    [
      'schema_version = "0.1"',
      `name = "${name}"`,
      'version = "1.2.3"',
      'entry = "agent.wasm"',
      'sandbox = "wasm"',
      `capabilities = [${capabilities.map((c) => `"${c}"`).join(', ')}]`,
      'oauth_scopes = []',
      'resources.cpu = "250m"',
      'resources.mem = "32Mi"',
      'ui.hints = ["streaming", "log", "image"]',
      '',
    ].join('\n'),
  );
}

async function installUserAgents(home: string): Promise<void> {
  await installAgent(home, 'card-gallery', [], guestWat(outputs.map((req) => ({ fn: 'output', req })), { call: { fn: 'output', req: logChunk }, times: LOG_CHUNKS }));
  // Asks for one sensitive network write, exactly, then says it is done.
  await installAgent(
    home,
    'poster',
    ['network'],
    guestWat([
      {
        fn: 'consent',
        req: { capability: 'network', target: 'api.example.org', method: 'POST', action: SENSITIVE_ACTION, reason: 'to file the report as a new item', duration_s: 300 },
      },
      { fn: 'output', req: { content_type: 'text/markdown', data: 'asked', chunk_id: 'done' } },
    ]),
  );
  // A folder whose manifest is broken: listed with its errors, never run.
  const broken = join(home, 'agents', 'half-written');
  mkdirSync(broken, { recursive: true });
  writeFileSync(join(broken, 'manifest.toml'), 'schema_version = "0.1"\nname = "half-written"\nsandbox = "vm"\n');
}

test.describe('agent cards', () => {
  // A function-valued option is given through a fixture function (a bare function would be taken for one).
  // eslint-disable-next-line no-empty-pattern
  test.use({ prepareHome: async ({}, use) => use(installUserAgents) });

  test('a user agent and a broken one are listed; its cards: safe markdown, highlighted code, image preview, a 100k-line log that stays virtualised and keeps its state across views', async ({
    omni,
  }) => {
    test.setTimeout(90_000);
    const { page } = omni;
    await expectConnected(page);
    await page.getByTestId('tab-agents').click();
    const agents = page.getByTestId('agents-view');
    await expect(agents).toHaveAttribute('data-list-state', 'loaded');

    const gallery = agents.locator('[data-testid="agent-manifest"][data-agent="card-gallery"]');
    await expect(gallery.getByTestId('agent-source')).toHaveText('user');
    await expect(gallery).toContainText('1.2.3');
    await expect(gallery.getByTestId('agent-capabilities')).toHaveText('none');
    const broken = agents.getByTestId('agent-broken');
    await expect(broken).toHaveCount(1);
    await expect(broken).toContainText('half-written');
    await expect(broken.locator('.broken-errors li').first()).toBeVisible();
    await saveScreenshot(page, 'agents-view-user-and-broken');

    await page.getByTestId('tab-session').click();
    await createSession(page, omni.newWorkspace('gallery'), 'Gallery');
    const session = visibleSessionView(page);
    await session.getByTestId('agent-select').selectOption('card-gallery');
    await session.getByTestId('agent-prompt').fill('show me');
    await session.getByTestId('agent-prompt').press('Enter');
    const run = session.getByTestId('run-card');
    await expect(run).toHaveAttribute('data-outcome', 'completed', { timeout: 60_000 });

    // Markdown: rendered from the safe subset; the HTML in it is text, and none of it ran.
    const notes = run.locator('[data-testid="output-card"][data-card-kind="markdown"]');
    await expect(notes.locator('h4')).toHaveText('Gallery');
    await expect(notes.locator('strong')).toHaveText('bold');
    await expect(notes).toContainText('<script>document.title="pwned"</script>');
    await expect(notes.locator('img, script')).toHaveCount(0);
    expect(await page.title()).not.toBe('pwned');

    // Code: highlighted, the block comment carried over to its second line.
    const code = run.locator('[data-testid="output-card"][data-card-kind="code"]');
    await expect(code.locator('.line-row[data-line="2"] .tok-comment')).toHaveText('   comment */');
    await expect(code.locator('.tok-keyword').filter({ hasText: 'export' })).toHaveCount(1);
    await expect(code.locator('.tok-number')).toHaveText('42');

    // Image: previewed from base64.
    const image = run.getByTestId('image-preview');
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);

    // The flood: every line counted, only a screenful in the DOM, and the end reachable from the keyboard.
    const log = run.locator('[data-testid="output-card"][data-card-kind="log"]').getByTestId('log-lines');
    await expect(log).toHaveAttribute('data-line-count', String(TOTAL_LOG_LINES));
    expect(await log.locator('.line-row').count()).toBeLessThan(60);
    // A log follows its output: the last line is in view without the user scrolling.
    await expect(log.locator(`.line-row[data-line="${TOTAL_LOG_LINES}"]`)).toBeVisible();
    await log.focus();
    await page.keyboard.press('End');
    await expect(log.locator(`.line-row[data-line="${TOTAL_LOG_LINES}"]`)).toBeVisible();
    await page.keyboard.press('Home');
    await expect(log.locator('.line-row[data-line="1"]')).toBeVisible();
    await code.scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'agents-card-gallery');
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'agents-card-gallery-dark');
    await page.emulateMedia({ colorScheme: 'light' });

    // Away and back: the same cards, the same lines.
    await page.getByTestId('tab-ledger').click();
    await page.getByTestId('tab-agents').click();
    await page.getByTestId('tab-session').click();
    await expect(run.getByTestId('output-card')).toHaveCount(4);
    await expect(log).toHaveAttribute('data-line-count', String(TOTAL_LOG_LINES));

    // A host restart (crash) does not take the finished run's cards away from the page.
    await omni.restartHost();
    await expectConnected(page);
    await expect(run).toHaveAttribute('data-outcome', 'completed');
    await expect(run.getByTestId('output-card')).toHaveCount(4);
    await expect(log).toHaveAttribute('data-line-count', String(TOTAL_LOG_LINES));
  });

  test('a sensitive action: the consent card shows exactly what would be done; Allow once gives a once-grant the panel can revoke', async ({ omni }) => {
    const { page } = omni;
    await expectConnected(page);
    await createSession(page, omni.newWorkspace('posting'), 'Posting');
    const session = visibleSessionView(page);
    await session.getByTestId('agent-select').selectOption('poster');
    await session.getByTestId('agent-prompt').fill('file it');
    await session.getByTestId('agent-prompt').press('Enter');

    const consent = session.getByTestId('consent-card');
    await expect(consent).toHaveCount(1, { timeout: 15_000 });
    await expect(consent).toHaveClass(/consent-sensitive/);
    await expect(consent).toContainText('sensitive action');
    await expect(consent.getByTestId('consent-action')).toHaveText(SENSITIVE_ACTION);
    await expect(consent.getByTestId('consent-reason')).toContainText('to file the report as a new item');
    await expect(consent.getByTestId('consent-scope')).toHaveText('only the exact action above');
    await expect(consent.getByTestId('consent-minutes')).toHaveValue('5');
    await expect(session.getByTestId('run-asking')).toBeVisible();
    await saveScreenshot(page, 'agents-consent-sensitive');
    await consent.getByTestId('consent-allow-once').click();
    await expect(consent).toHaveCount(0);
    await expect(session.getByTestId('run-card')).toHaveAttribute('data-outcome', 'completed');

    const grant = session.getByTestId('grant-row');
    await expect(grant).toHaveCount(1);
    await expect(grant).toContainText(SENSITIVE_ACTION);
    await expect(grant.getByTestId('grant-countdown')).toContainText('once');
    await grant.getByTestId('grant-revoke').press('Enter');
    await expect(session.getByTestId('grant-row')).toHaveCount(0);
  });
});
