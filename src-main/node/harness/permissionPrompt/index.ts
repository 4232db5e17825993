// The permission prompt for headless Claude Code (docs/harness.md, "Consent for CLI agents").
export { PermissionPromptServer, type PermissionPromptOptions } from './permissionPromptServer';
export { decidePermission, type PermissionRequest, type PermissionResult, type PermissionSession } from './permissionDecision';
export { claudeToolCapability, type ClaudeToolUse } from './claudeToolCapability';
export { PERMISSION_PROMPT_TOOL } from './stdioSocketRelay';
