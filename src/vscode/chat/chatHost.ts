// What `@executor`'s chat (the model loop and the prompt, context and attachment steps it calls) needs from
// the extension: one definition that each of those modules reads, none of them owning the others.
import type { ChatTurnCheckpoint } from '../undo/turnUndo';
import type { IgnoredPaths } from '../../executor';
import type { Logger } from '../../executor';
import type { Redactor } from '../../executor';
import type { ToolExecutor } from '../../executor';
import type { DiffLinks } from './diffLinks';
import type { ContextMemory } from './modelCounter';

/** The chat settings the prompt follows. */
export interface ChatPromptSettings {
  /** `agentToolExecutor.chat.instructions`: the user's own instructions, added to every request. */
  readonly instructions: string;
  /** `agentToolExecutor.chat.instructionFiles`: load the project's instruction files. */
  readonly instructionFiles: boolean;
}

/** What the loop needs from the extension. */
export interface ChatHost {
  readonly participantId: string;
  readonly executor: ToolExecutor;
  readonly redactor: Redactor;
  readonly diffLinks: DiffLinks;
  workspaceFolders(): readonly string[];
  maxRounds(): number;
  /** Brings tools that come and go (other extensions' and MCP servers' tools) up to date before they are offered. */
  refreshTools?(): void;
  /** Counts and saved results kept across requests. */
  readonly contextMemory?: ContextMemory;
  /** Saves a result's whole (redacted) text where Read finds it again; its URI. */
  saveResult?(callId: string, text: string): Promise<string | undefined>;
  promptSettings?(): ChatPromptSettings;
  permissionMode?(): string;
  sandboxState?(): 'off' | 'starting' | 'ready' | 'unavailable' | undefined;
  ignoredPaths?(): IgnoredPaths | undefined;
  /** Where each request's context figures go (`chat.context`: tokens, what was shortened, what counting cost). */
  readonly logger?: Logger;
  /** Checkpoints each request before its first write, so the reply can offer to undo it. */
  readonly checkpoints?: { begin(title: string): ChatTurnCheckpoint | undefined };
}
