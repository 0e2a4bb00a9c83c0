// The tool registry (spec §1): tools by name, with their compiled schemas; disabled tools stay known.
import type { JsonSchema, ToolDefinition } from './contract';
import { compileSchema, type CompiledSchema } from './schema';

/** A registered tool. */
export interface ToolEntry {
  readonly def: ToolDefinition;
  readonly schema: CompiledSchema;
}

/** What the model is offered for one tool. */
export interface ToolDescriptor {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

/** Names models and MCP servers use; long enough for `server__tool` names. */
const TOOL_NAME = /^[A-Za-z0-9_.:-]{1,128}$/;

export class ToolRegistry {
  private readonly entries = new Map<string, ToolEntry>();
  private readonly disabled = new Set<string>();

  /** Registers a tool; returns a function that unregisters it. Throws on a bad or duplicate name. */
  register(def: ToolDefinition): () => void {
    if (!TOOL_NAME.test(def.name)) {
      throw new TypeError(`invalid tool name ${JSON.stringify(def.name)}: use letters, digits, _ . : - (at most 128)`);
    }
    if (this.entries.has(def.name)) {
      throw new Error(`tool ${def.name} is already registered`);
    }
    if (typeof def.handler !== 'function') {
      throw new TypeError(`tool ${def.name} has no handler`);
    }
    const entry = hasDeferredSchema(def) ? deferredEntry(def) : { def, schema: compileSchema(def) };
    this.entries.set(def.name, entry);
    return () => {
      if (this.entries.get(def.name) === entry) {
        this.entries.delete(def.name);
      }
    };
  }

  get(name: string): ToolEntry | undefined {
    return this.entries.get(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Disabled tools stay registered; a call to one is refused with `tool NAME is disabled`. */
  setEnabled(name: string, enabled: boolean): void {
    if (enabled) this.disabled.delete(name);
    else this.disabled.add(name);
  }

  isDisabled(name: string): boolean {
    return this.disabled.has(name);
  }

  /** Registered, enabled tool names, sorted. */
  names(): string[] {
    return [...this.entries.keys()].filter((name) => !this.disabled.has(name)).sort();
  }

  /** Descriptors of the enabled tools (or of `names`), for the model's tool list. */
  describe(names?: readonly string[]): ToolDescriptor[] {
    return (names ?? this.names())
      .map((name) => this.entries.get(name))
      .filter((entry): entry is ToolEntry => entry !== undefined && !this.disabled.has(entry.def.name))
      .map(({ def, schema }) => ({ name: def.name, description: def.description, inputSchema: schema.jsonSchema }));
  }
}

/** `inputSchema` is a getter (the built-in tools', `deferredSchema`): nothing of it is built before it is needed. */
function hasDeferredSchema(def: ToolDefinition): boolean {
  return typeof Object.getOwnPropertyDescriptor(def, 'inputSchema')?.get === 'function';
}

/** An entry whose schema is built and compiled on first use (a call's validation, the tool list). */
function deferredEntry(def: ToolDefinition): ToolEntry {
  let schema: CompiledSchema | undefined;
  return {
    def,
    get schema() {
      schema ??= compileSchema(def);
      return schema;
    },
  };
}
