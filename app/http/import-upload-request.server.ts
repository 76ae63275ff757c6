import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { data, redirect } from "react-router";
import type { Db } from "~/db/client.server";
import { IMPORT_PAGE_TEXTS as T } from "~/lib/import-texts";
import type { Notice } from "~/lib/notices";
import { importQueued } from "~/services/import/import-worker.server";
import { createRun } from "~/services/import/runs.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { receiveMultipart, UploadError } from "./multipart-upload.server";

/** The largest export the admin takes: a 600 MB WordPress export with room to spare (issue 35). */
export const IMPORT_UPLOAD_MAX_BYTES = 1024 ** 3;

function refused(status: number, description: string) {
  return data<{ notice: Notice }>({ notice: { title: T.notUploaded, description, variant: "error" } }, { status });
}

/** http(s)://host[/path], without a query: the old site's address as the operator types it. */
export function oldSiteAddress(value: string | undefined): string | null {
  if (!value?.trim()) return "";
  try {
    const url = new URL(value.trim());
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.search || url.hash) return null;
    return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
  } catch {
    return null;
  }
}

/**
 * POST /admin/import with a file: streams the export to disk under DATA_DIR/imports (never into
 * memory), records the run as uploaded and sends the browser to its page, where the dry run's
 * findings appear once the import job has read the file (decision 159).
 */
export async function handleImportUpload(request: Request, db: Db, actor: string) {
  const env = getEnv();
  const dir = path.join(env.DATA_DIR === "memory" ? os.tmpdir() : path.resolve(env.DATA_DIR), "imports");
  let received;
  try {
    received = await receiveMultipart(request, { dir, maxBytes: IMPORT_UPLOAD_MAX_BYTES, fileField: "file" });
  } catch (error) {
    if (error instanceof UploadError) return refused(error.status, error.message);
    throw error;
  }
  const { fields, file } = received;
  const site = oldSiteAddress(fields.site);
  const problem = !file || file.bytes === 0 ? T.chooseFile : fields.kind !== "wordpress" && fields.kind !== "ghost" ? T.chooseKind : site === null ? T.badSite : null;
  if (problem) {
    if (file) await rm(file.path, { force: true });
    return refused(400, problem);
  }
  const run = await createRun(db, {
    kind: fields.kind as "wordpress" | "ghost",
    filePath: file!.path,
    fileName: file!.name,
    fileBytes: file!.bytes,
    options: { categories: {}, defaultCategory: "", overwriteEdited: false, ...(site ? { oldSiteUrl: site } : {}) },
    actor,
    uploaded: true,
  });
  logger.info({ run: run.id, kind: run.kind, file: file!.name, bytes: file!.bytes, actor }, "import upload received; its dry run is next");
  importQueued();
  throw redirect(`/admin/import/${run.id}`, 303);
}
