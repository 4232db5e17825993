// Mock LLM provider servers for tests (see mockProviderServer.ts for usage, mockProviderMain.ts for a process).
export { startMockProvider, type MockProvider } from './mockProviderServer';
export { echoScript, type MockReply, type MockScript, type MockToolCall, type MockUsage } from './mockScript';
export { cannedScript, parseCannedReplies, type CannedReply } from './cannedScript';
export { conversationOf, lastUserText, type ConversationTurn } from './conversation';
export type { MockApi, RecordedRequest } from './requestRecorder';
