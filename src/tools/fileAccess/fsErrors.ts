// File-system errors a model can act on (no permission, disk full, ...) become failed results, not crashes.
import type { ToolOutput } from '../../executor/contract/contract';

/** Runs `work`; an `errno` error becomes `cannot ACTION FILE: message`. Cancellation and bugs still throw. */
export async function withFsErrors<D>(action: string, file: () => string, work: () => Promise<ToolOutput<D>>): Promise<ToolOutput<D>> {
  try {
    return await work();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (typeof code === 'string' && code !== 'ABORT_ERR' && /^E[A-Z]+$/.test(code)) {
      return { content: `cannot ${action} ${file()}: ${(error as Error).message}`, isError: true };
    }
    throw error;
  }
}
