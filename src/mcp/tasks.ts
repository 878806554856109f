/**
 * MCP Tasks (the SDK's experimental tasks utility): a client that supports them can run a long tool
 * as a task — create, get, result, cancel — instead of holding a request open. The task store is
 * the SDK's in-memory one, extended so that tasks/cancel really stops the work (the SDK alone only
 * flips the status). Durability stays with the job store: every task's work is also a job.
 */
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import type { Task } from "@modelcontextprotocol/sdk/types.js";

export class CancellableTaskStore extends InMemoryTaskStore {
  private readonly aborts = new Map<string, AbortController>();

  /** The signal that tasks/cancel aborts for this task. */
  signalFor(taskId: string): AbortSignal {
    const abort = new AbortController();
    this.aborts.set(taskId, abort);
    return abort.signal;
  }

  release(taskId: string): void {
    this.aborts.delete(taskId);
  }

  override async updateTaskStatus(taskId: string, status: Task["status"], statusMessage?: string, sessionId?: string): Promise<void> {
    await super.updateTaskStatus(taskId, status, statusMessage, sessionId);
    if (status === "cancelled") this.aborts.get(taskId)?.abort("cancelled");
  }
}

/** A day: long enough for any run this server does; the store keeps a task's result in memory. */
export const MAX_TASK_TTL_MS = 24 * 3_600_000;
const DEFAULT_TASK_TTL_MS = 3_600_000;

/**
 * The ttl the task gets (MCP lets the receiver choose; the created task reports it). The store
 * arms a timer with it, and a timer of 2^31 ms or more fires after 1 ms, so a client asking for
 * a long life had its task gone at once.
 */
export function taskTtl(requested: number | null | undefined): number {
  if (typeof requested !== "number" || !Number.isFinite(requested)) return DEFAULT_TASK_TTL_MS;
  return Math.min(Math.max(Math.round(requested), 1000), MAX_TASK_TTL_MS);
}
