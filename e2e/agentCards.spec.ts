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

/** A user agent written in WAT: it outputs the cards above, then floods a log card. It needs no capability. */
function galleryWat(): string {
  let offset = 1024;
  const data: string[] = [];
  const calls: string[] = [];
  for (const request of [...outputs, logChunk]) {
    const json = JSON.stringify(request);
    const bytes = Buffer.byteLength(json);
    data.push(`(data (i32.const ${offset}) "${dataLiteral(json)}")`);
    calls.push(`(i32.const ${offset}) (i32.const ${bytes})`);
    offset += bytes;
  }
  if (offset > 65536) throw new Error('the requests must fit in the first page');
  const flood = calls.pop()!;
  return `(module
  (import "omni" "output" (func $output (param i32 i32) (result i64)))
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
    ${calls.map((args) => `(drop (call $output ${args}))`).join('\n    ')}
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $i) (i32.const ${LOG_CHUNKS})))
        (drop (call $output ${flood}))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $next)))))`;
}

async function installUserAgents(home: string): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const wabt = await (require('wabt') as () => Promise<Wabt>)();
  const parsed = wabt.parseWat('gallery.wat', galleryWat());
  const binary = parsed.toBinary({}).buffer;
  parsed.destroy();
  const gallery = join(home, 'agents', 'card-gallery');
  mkdirSync(gallery, { recursive: true });
  writeFileSync(join(gallery, 'agent.wasm'), binary);
  writeFileSync(
    join(gallery, 'manifest.toml'),
    [
      'schema_version = "0.1"',
      'name = "card-gallery"',
      'version = "1.2.3"',
      'entry = "agent.wasm"',
      'sandbox = "wasm"',
      'capabilities = []',
      'oauth_scopes = []',
      'resources.cpu = "250m"',
      'resources.mem = "32Mi"',
      'ui.hints = ["streaming", "log", "image"]',
      '',
    ].join('\n'),
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
    await expect(agents).toHaveAttribute('data-list-state', /loaded|error/);
    test.skip((await agents.getAttribute('data-list-state')) !== 'loaded', 'the host does not answer agent.list yet (no agent runtime)');

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
    await log.focus();
    await page.keyboard.press('End');
    await expect(log.locator(`.line-row[data-line="${TOTAL_LOG_LINES}"]`)).toBeVisible();
    await page.keyboard.press('Home');
    await expect(log.locator('.line-row[data-line="1"]')).toBeVisible();
    await saveScreenshot(page, 'agents-card-gallery');

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
});
