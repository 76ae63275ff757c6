import { getLatestArticles } from "./index";
import { toTeaser } from "./teasers";

export const LATEST_INSIGHTS_COUNT = 3;

export function loadHomeContent() {
  return { latest: getLatestArticles(LATEST_INSIGHTS_COUNT).map(toTeaser) };
}
