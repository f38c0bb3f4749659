/**
 * Waits until `condition()` holds, however long the machine takes: no count of tries, no real-time
 * budget of its own (a loop of "100 tries of 10 ms" fails when a loaded machine is slower than
 * that). A condition that never comes is ended by the test's own timeout, which names the test.
 */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
