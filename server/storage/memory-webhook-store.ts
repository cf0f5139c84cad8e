/** The webhook store in this process's memory (tests, `memoryBackends`). Copies in and out, as a real store would. */
import type { WebhookStatus } from '../../shared/protocol/webhooks';
import { freshStatus, type StoredWebhook, type StoredWebhookWithStatus, type WebhookStore } from './webhook-store';

export class MemoryWebhookStore implements WebhookStore {
  private readonly hooks = new Map<string, StoredWebhookWithStatus[]>();

  async add(eventId: string, hook: StoredWebhook, max: number): Promise<boolean> {
    const list = this.hooks.get(eventId) ?? [];
    if (list.length >= max) return false;
    this.hooks.set(eventId, [...list, { ...structuredClone(hook), status: freshStatus() }]);
    return true;
  }

  async list(eventId: string): Promise<StoredWebhookWithStatus[]> {
    return structuredClone(this.hooks.get(eventId) ?? []);
  }

  async remove(eventId: string, id: string): Promise<boolean> {
    const list = this.hooks.get(eventId) ?? [];
    const rest = list.filter((h) => h.id !== id);
    this.hooks.set(eventId, rest);
    return rest.length < list.length;
  }

  async setStatus(eventId: string, id: string, status: WebhookStatus): Promise<void> {
    const hook = this.hooks.get(eventId)?.find((h) => h.id === id);
    if (hook) hook.status = structuredClone(status);
  }
}
