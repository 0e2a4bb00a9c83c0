// What `AgentBridge` loads once an agent is configured: the host that runs it with vscode-languageclient
// and the chat that forwards prompts to it. The bundles put this file, with vscode-languageclient,
// vscode-jsonrpc and src/bridge/, in `dist/agent-bridge.js` (scripts/build.mjs): everything that shares
// vscode-jsonrpc's classes (`ResponseError`, the message types) stays in that one file.
export { AgentHost } from './agentHost';
export { AgentChat } from './agentChat';
