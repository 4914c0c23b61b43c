import PQueue from "p-queue";

/**
 * At most `limit` tasks in flight (p-queue's slots): add() waits while every slot is busy, drain() waits for all.
 * What p-queue leaves to its caller is kept here: the first failure, thrown by the next add() or by drain(), so
 * an import writing screenshots learns of a full disk at its next write instead of at the end.
 */
export class TaskPool {
  readonly #queue: PQueue;
  #failure: { error: unknown } | null = null;
  constructor(limit: number) {
    this.#queue = new PQueue({ concurrency: limit });
  }
  async add(task: () => Promise<unknown>): Promise<void> {
    this.#throwFailure();
    void this.#queue.add(task).catch((error: unknown) => void (this.#failure ??= { error }));
    await this.#queue.onSizeLessThan(1);
    this.#throwFailure();
  }
  async drain(): Promise<void> {
    await this.#queue.onIdle();
    this.#throwFailure();
  }
  #throwFailure(): void {
    if (this.#failure) throw this.#failure.error;
  }
}
