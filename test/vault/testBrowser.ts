// The user's browser in the OAuth tests: real HTTP against the authorization server's pages, with cookies, following
// redirects by hand and submitting the device flow's forms (the code entry and its confirmation), the way a person
// clicking through them would.

export class TestBrowser {
  private readonly cookies = new Map<string, string>();

  /**
   * Loads `url` and follows redirects (and the device pages' forms) until `stop` says a URL must not be loaded (the
   * app's loopback redirect, say) or a page without a form is reached. Returns where it stopped and that page.
   */
  async visit(url: string, stop: (next: URL) => boolean = () => false): Promise<{ url: URL; status: number; body: string; stopped: boolean }> {
    let next = new URL(url);
    let method = 'GET';
    let body: URLSearchParams | undefined;
    for (let step = 0; step < 20; step++) {
      if (stop(next)) return { url: next, status: 0, body: '', stopped: true };
      const response = await fetch(next, {
        method,
        body,
        redirect: 'manual',
        headers: { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '), ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const eq = pair.indexOf('=');
        this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        next = new URL(location, next);
        method = 'GET';
        body = undefined;
        continue;
      }
      const text = await response.text();
      const form = formOf(text);
      if (!form) return { url: next, status: response.status, body: text, stopped: false };
      next = new URL(form.action, next);
      method = 'POST';
      body = new URLSearchParams(form.fields);
    }
    throw new Error(`the browser went through more than 20 pages from ${url}`);
  }
}

/**
 * The page's form, if it is one of the device flow's (an xsrf field) with the code filled in: the code entry
 * reached through verification_uri_complete, or its confirmation. An empty code form (shown again after an error)
 * is where a person would stop.
 */
function formOf(html: string): { action: string; fields: Record<string, string> } | null {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form || !/name="xsrf"/.test(form[2])) return null;
  const fields: Record<string, string> = {};
  for (const input of form[2].matchAll(/<input([^>]*)>/gi)) {
    const name = /name="([^"]+)"/.exec(input[1])?.[1];
    const value = /value="([^"]*)"/.exec(input[1])?.[1];
    if (name) fields[name] = value ?? '';
  }
  if (!fields.user_code) return null;
  return { action: form[1].replace(/&amp;/g, '&'), fields };
}
