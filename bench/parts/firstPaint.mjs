// UI first paint: navigation → first contentful paint of the app page, and → the sidebar (and its session list)
// on screen, next to the first contentful paint of the bare xterm.js reference page. One Chromium, cache disabled,
// navigations alternate between the two pages.
import { launchChromium } from '../lib/chromium.mjs';
import { median } from '../lib/stats.mjs';

export const SIDEBAR_SELECTOR = 'aside.sidebar';
export const SESSION_ITEM_SELECTOR = '[data-testid="session-item"]';

/** Runs before any page script (CDP-injected, so the page's CSP does not apply); it only watches the DOM. */
const WATCHER = `(() => {
  const marks = (window.__benchMarks = {});
  const watch = { sidebar: ${JSON.stringify(SIDEBAR_SELECTOR)}, sessionItem: ${JSON.stringify(SESSION_ITEM_SELECTOR)} };
  const check = () => {
    for (const [name, selector] of Object.entries(watch)) {
      if (marks[name] !== undefined || !document.querySelector(selector)) continue;
      const mark = (marks[name] = { dom: performance.now(), painted: undefined });
      // The frame after the one that includes the element: a close, portable stand-in for "painted".
      requestAnimationFrame(() => setTimeout(() => (mark.painted = performance.now()), 0));
    }
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
})()`;

function readTimings(withSidebar) {
  return `(() => {
    const paint = (name) => { const e = performance.getEntriesByName(name, 'paint')[0]; return e ? e.startTime : undefined; };
    const fcp = paint('first-contentful-paint');
    const marks = window.__benchMarks || {};
    const sidebar = marks.sidebar && marks.sidebar.painted;
    const sessionItem = marks.sessionItem && marks.sessionItem.painted;
    if (fcp === undefined || (${withSidebar} && (sidebar === undefined || sessionItem === undefined))) return null;
    const nav = performance.getEntriesByType('navigation')[0];
    const scripts = performance.getEntriesByType('resource').filter((e) => e.initiatorType === 'script' || /\\.js(\\?|$)/.test(e.name));
    const scriptsLoaded = scripts.reduce((m, e) => Math.max(m, e.responseEnd), 0);
    return { firstPaint: paint('first-paint'), fcp, sidebar, sessionItem, scriptsLoaded, domContentLoaded: nav && nav.domContentLoadedEventEnd };
  })()`;
}

/** `apps`: [{ name, url }] (e.g. the production and the development build); each is loaded in turn with the reference. */
export async function measureFirstPaint({ apps, referenceUrl, runs = 5, log }) {
  const browser = await launchChromium();
  const samples = Object.fromEntries(apps.map((a) => [a.name, []]));
  const reference = [];
  try {
    const { page } = browser;
    await page.send('Network.enable');
    await page.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.send('Page.addScriptToEvaluateOnNewDocument', { source: WATCHER });
    // One unmeasured round warms the browser process itself (first navigations of a fresh profile).
    for (let i = -1; i < runs; i++) {
      const order = [...apps.map((a) => [a.url, true, samples[a.name]]), [referenceUrl, false, reference]];
      for (const [url, withSidebar, into] of order) {
        await page.navigate('about:blank');
        await page.navigate(url);
        const timings = await page.waitFor(readTimings(withSidebar), `first paint of ${url}`, 20_000, 10);
        if (i >= 0) into.push(timings);
      }
      if (i < 0) continue;
      const parts = apps.map(({ name }) => {
        const t = samples[name].at(-1);
        return `${name}: FCP ${t.fcp.toFixed(0)} ms, sidebar ${t.sidebar.toFixed(0)} ms, session list ${t.sessionItem.toFixed(0)} ms`;
      });
      log(`  first paint ${i + 1}/${runs}: ${parts.join('; ')}; reference FCP ${reference.at(-1).fcp.toFixed(0)} ms`);
    }
    await page.navigate('about:blank');
  } finally {
    await browser.close();
  }
  return {
    runs,
    apps: apps.map(({ name, bundleBytes }) => ({
      name,
      bundleBytes,
      fcpMs: median(samples[name].map((t) => t.fcp)),
      scriptsLoadedMs: median(samples[name].map((t) => t.scriptsLoaded)),
      sidebarMs: median(samples[name].map((t) => t.sidebar)),
      sessionListMs: median(samples[name].map((t) => t.sessionItem)),
    })),
    reference: { fcpMs: median(reference.map((t) => t.fcp)), scriptsLoadedMs: median(reference.map((t) => t.scriptsLoaded)) },
    samples: { ...samples, reference },
  };
}
