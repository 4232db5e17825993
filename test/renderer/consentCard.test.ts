// The consent card's "Allow once" says what it means for a connection (oauth:*): "Allow for this run", since the
// handle it allows covers the agent's whole run; other capabilities keep "Allow once". The answer buttons are real
// buttons (reachable and pressed with the keyboard).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ConsentPrompt } from '../../src-preload/contract';
import { ConsentCard } from '../../src-renderer/features/consent/ConsentCard';
import { GrantRow } from '../../src-renderer/features/consent/GrantRow';
import { grantWithStatus as grant } from '../consent/grantFixture';

// tsx compiles .tsx with the classic JSX transform (React.createElement); see markdownView.test.ts.
(globalThis as { React?: typeof React }).React = React;

const prompt = (capability: string): ConsentPrompt => ({
  id: 'prompt_abcdefgh',
  sessionId: 'ses_1',
  agentId: 'claude-writer',
  capability,
  target: null,
  scope: null,
  action: null,
  sensitive: false,
  reason: 'call the model',
  durationS: 3600,
  askedAt: 1,
  deadline: Date.now() + 60_000,
});

/** The allow-once button's markup. */
const allowOnce = (capability: string): string => {
  const html = renderToStaticMarkup(createElement(ConsentCard, { prompt: prompt(capability) }));
  return /<button[^>]*data-testid="consent-allow-once"[^>]*>.*?<\/button>/.exec(html)?.[0] ?? html;
};

test('for a connection the card offers "Allow for this run"; for anything else "Allow once"; both are keyboard buttons', () => {
  const connection = allowOnce('oauth:anthropic.api');
  assert.match(connection, /^<button type="button"/);
  assert.match(connection, />Allow for this run <kbd aria-hidden="true">A<\/kbd><\/button>$/);
  assert.match(connection, /title="Every request of this run of the agent; its next run asks again \(key: A\)"/);
  const files = allowOnce('files.write');
  assert.match(files, /^<button type="button"/);
  assert.match(files, />Allow once <kbd aria-hidden="true">A<\/kbd><\/button>$/);
  assert.match(files, /aria-keyshortcuts="A"/);
});


test('a once-grant held by a run shows "for this run, in use" and is revocable', () => {
  const html = renderToStaticMarkup(createElement(GrantRow, { grant: grant('used'), now: Date.now() }));
  assert.match(html, /data-testid="grant-countdown"[^>]*>for this run, in use</);
  assert.match(html, /data-testid="grant-revoke"/);

  // That it leaves the list when the run ends (spent) is the host's to say: test/consent/grantList.test.ts.
});
