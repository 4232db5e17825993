// http-check: fetches a URL (the prompt) and reports its status and the start of its body. Needs network, asked
// for the URL's domain only; denied or revoked, it says what it would have fetched and stops.
import { askConsent, fetch, newChunkId, omni_alloc, output, readInput } from 'omni-sdk';

export { omni_alloc };

function domainOf(url: string): string {
  let rest = url;
  const scheme = rest.indexOf('://');
  if (scheme >= 0) rest = rest.substring(scheme + 3);
  let end = rest.length;
  for (let i = 0; i < rest.length; i++) {
    const c = rest.charCodeAt(i);
    if (c == 47 || c == 58 || c == 63 || c == 35) {
      end = i;
      break;
    }
  }
  return rest.substring(0, end).toLowerCase();
}

export function omni_start(ptr: usize, len: i32): void {}

export function omni_invoke(ptr: usize, len: i32): void {
  let url = readInput(ptr, len).prompt.trim();
  if (url.indexOf('://') < 0) url = 'https://' + url;
  const card = newChunkId();
  const domain = domainOf(url);
  output('text/markdown', '## Checking ' + url + '\n\n', card);
  let result = fetch(url);
  if (!result.ok && (result.code == 'capability_denied' || result.code == 'capability_revoked')) {
    if (askConsent('network', 'to fetch ' + url + ' and report its status', 300, domain)) result = fetch(url);
  }
  if (!result.ok) {
    output('text/markdown', 'No request was made to **' + domain + '** (`' + result.code + '`: ' + result.message + ').\n', card);
    return;
  }
  output('text/markdown', 'Status **' + result.status.toString() + '**, ' + result.body.length.toString() + ' characters.\n', card);
  output('text/x-code;lang=html', result.body.length > 2000 ? result.body.substring(0, 2000) + '\n…' : result.body, newChunkId());
}

export function omni_shutdown(): void {}
