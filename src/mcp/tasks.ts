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
