/**
 * Waits for a check that reads the store (async, so the sandbox's `waitFor` cannot take it): the
 * check's first truthy value, polled every 25 ms; rejects after `timeoutMs`.
 */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  options: { timeoutMs?: number; description?: string } = {},
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() >= deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.description ?? 'condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
