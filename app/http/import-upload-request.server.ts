import { rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { data, redirect } from "react-router";
import type { Db } from "~/db/client.server";
import { IMPORT_PAGE_TEXTS as T } from "~/lib/import-texts";
import type { Notice } from "~/lib/notices";
import { importQueued } from "~/services/import/import-worker.server";
import { createRun } from "~/services/import/runs.server";
import { openUploads, UploadsError } from "~/services/import/uploads-source.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { receiveMultipart, UploadError } from "./multipart-upload.server";

/** The largest export the admin takes: a 600 MB WordPress export with room to spare (issue 35). */
export const IMPORT_UPLOAD_MAX_BYTES = 1024 ** 3;
/** The largest .zip of the old site's uploads: years of a WordPress site's pictures (nginx allows the sum of both). */
export const IMPORT_UPLOADS_ZIP_MAX_BYTES = 4 * 1024 ** 3;

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

/** A .zip the import can read its images from: its index read through once, then let go. */
async function zipProblem(file: string) {
  try {
    (await openUploads(file)).close();
    return null;
  } catch (error) {
    if (error instanceof UploadsError) return T.uploadsNotZip;
    throw error;
  }
}

/**
 * POST /admin/import with a file: streams the export (and the old site's uploads as a .zip, when
 * given) to disk under DATA_DIR/imports (never into memory), records the run as uploaded and sends
 * the browser to its page, where the dry run's findings appear once the import job has read the
 * file (decision 159).
 */
export async function handleImportUpload(request: Request, db: Db, actor: string) {
  const env = getEnv();
  const dir = path.join(env.DATA_DIR === "memory" ? os.tmpdir() : path.resolve(env.DATA_DIR), "imports");
  let received;
  try {
    received = await receiveMultipart(request, { dir, fileFields: { file: IMPORT_UPLOAD_MAX_BYTES, uploads: IMPORT_UPLOADS_ZIP_MAX_BYTES } });
  } catch (error) {
    if (error instanceof UploadError) return refused(error.status, error.message);
    throw error;
  }
  const { fields, file } = received;
  // An empty file input still sends an empty part: no uploads given.
  const uploads = received.files.uploads && received.files.uploads.bytes > 0 ? received.files.uploads : null;
  const site = oldSiteAddress(fields.site);
  const problem =
    !file || file.bytes === 0 ? T.chooseFile : fields.kind !== "wordpress" && fields.kind !== "ghost" ? T.chooseKind : site === null ? T.badSite : uploads ? await zipProblem(uploads.path) : null;
  if (problem) {
    for (const part of Object.values(received.files)) await rm(part.path, { force: true });
    return refused(400, problem);
  }
  if (received.files.uploads && !uploads) await rm(received.files.uploads.path, { force: true });
  const run = await createRun(db, {
    kind: fields.kind as "wordpress" | "ghost",
    filePath: file!.path,
    fileName: file!.name,
    fileBytes: file!.bytes,
    options: { categories: {}, defaultCategory: "", overwriteEdited: false, ...(site ? { oldSiteUrl: site } : {}), ...(uploads ? { uploadsPath: uploads.path } : {}) },
    actor,
    uploaded: true,
  });
  logger.info({ run: run.id, kind: run.kind, file: file!.name, bytes: file!.bytes, uploadsZipBytes: uploads?.bytes ?? 0, actor }, "import upload received; its dry run is next");
  importQueued();
  throw redirect(`/admin/import/${run.id}`, 303);
}
