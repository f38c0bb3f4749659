/**
 * What a long-running command has opened (files, locks, sessions, servers, signal handlers), closed
 * once, in the reverse order of opening, on every way out: a command registers each resource as it
 * opens it and closes them all in one `finally`.
 */
export class Closers {
  private readonly stack: (() => void | Promise<void>)[] = [];

  /** Registers `close`, to run before every close registered earlier. */
  add(close: () => void | Promise<void>): void {
    this.stack.push(close);
  }

  /** Runs every close registered, the last first; each at most once. */
  async closeAll(): Promise<void> {
    for (let close = this.stack.pop(); close !== undefined; close = this.stack.pop()) await close();
  }
}
