/**
 * At most `limit` tasks in flight: add() waits while the pool is full, drain() waits for all. The first
 * failure is kept and thrown by the next add() or by drain(), so a caller learns of it promptly.
 */
export class TaskPool {
  readonly #limit: number;
  #pending = new Set<Promise<void>>();
  #failed = false;
  #error: unknown;
  constructor(limit: number) {
    this.#limit = limit;
  }
  async add(task: () => Promise<unknown>): Promise<void> {
    if (this.#failed) throw this.#error;
    const p: Promise<void> = task().then(
      () => void this.#pending.delete(p),
      (e: unknown) => {
        this.#pending.delete(p);
        if (!this.#failed) [this.#failed, this.#error] = [true, e];
      },
    );
    this.#pending.add(p);
    while (this.#pending.size >= this.#limit) await Promise.race(this.#pending);
    if (this.#failed) throw this.#error;
  }
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all(this.#pending);
    if (this.#failed) throw this.#error;
  }
}
