// Consent in plain words (issue 23 item 5): a command as it would be typed with its full folder, a scope as a
// sentence, the countdown as "Auto-deny in 4:58" and none without a deadline; the card shows them, labels the
// duration field and names its keyboard shortcuts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ConsentPrompt } from '../../src-preload/contract';
import { ConsentCard } from '../../src-renderer/features/consent/ConsentCard';
import { autoDenyText, commandWords, scopeSentence } from '../../src-renderer/features/consent/consentWords';
import { formatRemaining } from '../../src-renderer/features/consent/durations';

(globalThis as { React?: typeof React }).React = React;

test('a shell-tool command reads as typed, quoted where a shell needs it, with the full folder it runs in', () => {
  const words = commandWords('["node","-e","console.log(\\"hi $USER\\")"] in tools (pty)', '/home/ana/ws');
  assert.deepEqual(words, { line: 'node -e "console.log(\\"hi \\$USER\\")"', folder: '/home/ana/ws/tools', pty: true });
  assert.deepEqual(commandWords('["ls","-la"] in .', '/home/ana/ws'), { line: 'ls -la', folder: '/home/ana/ws', pty: false });
  assert.equal(commandWords('npm test', '/ws'), null, 'a command line without its folder is shown exactly as given');
  assert.equal(commandWords('run natively: bin/agent', '/ws'), null, 'a native launch is not a command line');
  assert.equal(commandWords('[not json] in .', null), null);
});

test('a scope is a sentence naming the folder and the access', () => {
  assert.equal(scopeSentence('files.read', '**', '/home/ana/ws'), 'all files in /home/ana/ws, read only');
  assert.equal(scopeSentence('files.write', 'demo-lib/**', '/ws'), 'all files in /ws/demo-lib/, write (create, change or replace)');
  assert.equal(scopeSentence('files.read', 'notes.md', '/ws'), 'only /ws/notes.md, read only');
  assert.equal(scopeSentence('files.read', 'src/*.ts', '/ws'), 'files matching src/*.ts in /ws, read only');
  assert.equal(scopeSentence('network', 'example.org', null), 'reading (GET) from example.org');
  assert.equal(scopeSentence('network', '*.example.org', null), 'reading (GET) from the subdomains of example.org');
  assert.equal(scopeSentence('files.read', null, null), 'all files in the workspace, read only');
});

test('"Auto-deny in 4:58"; no countdown without a deadline', () => {
  assert.equal(autoDenyText(1000 + 298_000, 1000, formatRemaining), 'Auto-deny in 4:58');
  assert.equal(autoDenyText(null, 1000, formatRemaining), null);
  assert.equal(autoDenyText(undefined, 1000, formatRemaining), null);
});

const prompt = (over: Partial<ConsentPrompt>): ConsentPrompt => ({
  id: 'prompt_abcdefgh',
  sessionId: 'ses_1',
  agentId: 'shell-agent',
  capability: 'process.exec',
  target: null,
  scope: null,
  action: '["node","-e","1+1"] in .',
  sensitive: true,
  reason: 'to check the sum',
  durationS: 600,
  askedAt: 1,
  deadline: Date.now() + 298_500,
  ...over,
});

test('the card: the command in plain words, no argv JSON on screen, a labelled duration, shortcuts named', () => {
  const html = renderToStaticMarkup(createElement(ConsentCard, { prompt: prompt({}) }));
  assert.match(html, /data-testid="consent-command"[^>]*>\$ node -e 1\+1<\/pre>/);
  assert.doesNotMatch(html.replace(/ title="[^"]*"/g, ''), /&quot;node&quot;,/, 'the argv JSON is only in the tooltip');
  assert.match(html, /<label for="[^"]+" class="consent-minutes-label">Duration \(minutes\)<\/label><input id="[^"]+"/);
  assert.match(html, /data-testid="consent-countdown"[^>]*>Auto-deny in 4:5\d</);
  assert.match(html, /aria-keyshortcuts="D"/);
  assert.match(html, /data-testid="consent-scope">only this command, in this folder</);
});

test('the card: a write shows its diff; no countdown when the host set no deadline', () => {
  const write = prompt({ capability: 'files.write', action: null, sensitive: false, target: 'notes.md', scope: 'notes.md', write: { path: 'notes.md', before: 'one\ntwo\n', after: 'one\nthree\n', truncated: false } });
  const html = renderToStaticMarkup(createElement(ConsentCard, { prompt: { ...write, deadline: null as unknown as number } }));
  assert.match(html, /data-testid="consent-write" data-new-file="false"/);
  assert.match(html, /Changes to the file as it is now/);
  assert.doesNotMatch(html, /consent-countdown/);
  assert.match(html, /data-testid="consent-scope">only the workspace\/notes.md, write/);
});
