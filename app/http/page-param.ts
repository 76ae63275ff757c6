/** The ?page= of a paged admin list: a whole number from 1 (bad or missing values mean 1). */
export function pageParam(request: Request, max = 10_000) {
  const page = Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10);
  return Number.isFinite(page) ? Math.max(1, Math.min(max, page)) : 1;
}
