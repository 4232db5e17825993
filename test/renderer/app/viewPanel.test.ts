// A main view's panel mounts its content only once the view has been shown: the views nobody opened (the ledger,
// the agents list, connections) cost the page's start no render and no fetch from the host.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as React from 'react';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { ViewPanel } from '../../../src-renderer/app/ViewPanel';

// The test runner compiles .tsx with the classic JSX transform (React.createElement); see markdownView.test.ts.
(globalThis as { React?: typeof React }).React = React;

const panel = (shown: boolean): string => renderToStaticMarkup(createElement(ViewPanel, { view: 'ledger', shown, focusable: true, children: createElement('p', null, 'the ledger') }));

test('a view not shown yet is an empty, hidden tab panel; shown, it holds its content', () => {
  assert.equal(panel(false), '<div class="view-panel" role="tabpanel" id="panel-ledger" aria-labelledby="tab-ledger" tabindex="0" hidden=""></div>');
  assert.equal(panel(true), '<div class="view-panel" role="tabpanel" id="panel-ledger" aria-labelledby="tab-ledger" tabindex="0"><p>the ledger</p></div>');
});
