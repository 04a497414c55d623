/**
 * Hands the notices of a channel to the part that owns it (the video relay), and tells every part when the
 * listening connection is back (notices sent meanwhile are lost: each part looks again).
 */
export class NotificationHub {
  readonly #handlers = new Map<string, (payload: string) => void>();
  readonly #reconnected: (() => void)[] = [];

  on(channel: string, handler: (payload: string) => void): void {
    this.#handlers.set(channel, handler);
  }

  onReconnected(handler: () => void): void {
    this.#reconnected.push(handler);
  }

  dispatch(channel: string, payload: string): void {
    this.#handlers.get(channel)?.(payload);
  }

  reconnected(): void {
    for (const handler of this.#reconnected) handler();
  }
}
