import { getDb } from "~/db/database.server";
import { contentChanges } from "~/services/content/changes.server";
import { loadPublishedSnapshot } from "~/services/content/published.server";
import { currentSnapshot, setSnapshot } from "./published";

let loading: Promise<void> | undefined;

/**
 * The production server loads the snapshot before it listens (runtime.server.ts); the dev server
 * and the commands do not start the runtime, so content loaders await this first: it loads the
 * snapshot once and follows this process's own changes. A resolved promise otherwise.
 */
export function ensurePublishedContent(): Promise<void> {
  if (currentSnapshot().loadedAt > 0) return Promise.resolve();
  loading ??= getDb()
    .then(async (db) => {
      setSnapshot(await loadPublishedSnapshot(db));
      contentChanges.on("changed", (change) => {
        if (change === "live") void loadPublishedSnapshot(db).then(setSnapshot, () => {});
      });
    })
    .finally(() => {
      loading = undefined;
    });
  return loading;
}
