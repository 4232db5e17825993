// A native "agent" for the proxy tests: a separate Node process that knows nothing but its environment (the base URL
// and the dummy key the proxy handed out), streams a chat completion the way an OpenAI client does, and prints one
// JSON line per thing that happens (what it saw, never what it was not given).

/** The client's source, run with `node -e`; arguments: the number of events to ask for ('endless' for no end) and the gap. */
export const STREAMING_CLIENT = String.raw`
const [events, gapMs, then] = process.argv.slice(1);
const say = (what) => process.stdout.write(JSON.stringify({ t: Date.now(), ...what }) + '\n');
const base = process.env.OPENAI_BASE_URL ?? process.env.ANTHROPIC_BASE_URL;
const key = process.env.OPENAI_API_KEY ?? process.env.ANTHROPIC_API_KEY;
const headers = process.env.OPENAI_API_KEY ? { authorization: 'Bearer ' + key } : { 'x-api-key': key };
async function stream() {
  const path = process.env.OPENAI_BASE_URL ? '/chat/completions' : '/v1/messages';
  const response = await fetch(base + path, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ stream: true, events: events === 'endless' ? -1 : Number(events), gapMs: Number(gapMs) }) });
  say({ status: response.status });
  if (response.status !== 200) return say({ refused: await response.text() });
  const decoder = new TextDecoder();
  let buffered = '';
  try {
    for await (const chunk of response.body) {
      buffered += decoder.decode(chunk, { stream: true });
      let end;
      while ((end = buffered.indexOf('\n\n')) >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        say({ event: block });
      }
    }
    say({ ended: 'complete' });
  } catch (error) {
    say({ ended: 'cut', error: String(error.cause?.code ?? error.message) });
  }
}
(async () => {
  say({ env: process.env, argv: process.argv });
  await stream();
  if (then === 'again') await stream();
})().catch((error) => say({ failed: String(error) }));
`;
