import { conversationOf, type MockScript, type MockToolCall, type RecordedRequest } from '../mockProviders';

/**
 * A mock model for Claude Code's Write tool: it calls the tool `callFor` names, once; given the tool's result, it
 * ends the turn repeating it ("tool said: …"). Side requests (titles, summaries) carry no tools: a plain answer.
 */
export function writeToolScript(callFor: (req: RecordedRequest) => MockToolCall): MockScript {
  return (req) => {
    const tools = (req.body as { tools?: { name: string }[] }).tools ?? [];
    if (!tools.some((tool) => tool.name === 'Write')) return { text: 'ok' };
    const last = conversationOf(req).at(-1);
    if (last?.role === 'tool') return { text: `tool said: ${last.text}` };
    return { toolCalls: [callFor(req)] };
  };
}
