/**
 * Maps items with at most `limit` calls in flight, keeping the input order. After the first
 * failure no new call starts, and the failure is thrown.
 */
export async function mapConcurrent<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  async function work(): Promise<void> {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await map(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  }
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, work);
  await Promise.all(workers);
  return results;
}
