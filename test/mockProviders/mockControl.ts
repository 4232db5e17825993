// Control routes under /_mock/ on every mock server, for tests in another process than the mock (e2e tests talking
// to mockProviderMain through a real host): read what was received, forget it, or swap the canned replies.
//   GET    /_mock/requests   → RecordedRequest[] (JSON), oldest first; control requests are not recorded
//   DELETE /_mock/requests   → 204, forgets them
//   PUT    /_mock/replies    → 204, body = canned replies as in mockProviderMain's file ([{match, text?, ...}])
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cannedScript, parseCannedReplies } from './cannedScript';
import type { MockScript } from './mockScript';
import type { RequestRecorder } from './requestRecorder';
import { sendJson } from './sseWriter';

export const CONTROL_PREFIX = '/_mock/';

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Answers a control request (its path starts with CONTROL_PREFIX). */
export async function handleControl(req: IncomingMessage, res: ServerResponse, recorder: RequestRecorder, setScript: (script: MockScript) => void): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (path === '/_mock/requests' && req.method === 'GET') {
    sendJson(res, 200, recorder.requests);
  } else if (path === '/_mock/requests' && req.method === 'DELETE') {
    recorder.requests.length = 0;
    res.writeHead(204).end();
  } else if (path === '/_mock/replies' && req.method === 'PUT') {
    try {
      setScript(cannedScript(parseCannedReplies(JSON.parse(await readBody(req)), 'the body')));
      res.writeHead(204).end();
    } catch (error) {
      sendJson(res, 400, { error: { type: 'invalid_request_error', message: (error as Error).message } });
    }
  } else {
    sendJson(res, 404, { error: { type: 'not_found_error', message: `no control route ${req.method} ${path}; see test/mockProviders/mockControl.ts` } });
  }
}
