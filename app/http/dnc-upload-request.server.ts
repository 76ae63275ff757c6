import os from "node:os";
import path from "node:path";
import { data, redirect } from "react-router";
import type { Db, DbKind } from "~/db/client.server";
import type { Notice } from "~/lib/notices";
import { createDncUpload, DNC_UPLOAD_MAX_BYTES, runDncUpload } from "~/services/dnc/upload.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { receiveMultipart, UploadError } from "./multipart-upload.server";
import { rm } from "node:fs/promises";

function refused(status: number, description: string) {
  return data<{ notice: Notice }>({ notice: { title: "Not Imported", description, variant: "error" } }, { status });
}

/** A registry date: YYYY-MM-DD, a real day, not in the future (a day of slack for time zones). */
export function validDataDate(value: string | undefined, now = new Date()) {
  if (!value || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const day = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === value && day.getTime() <= now.getTime() + 86_400_000;
}

/**
 * POST /admin/dnc with a file: streams it to disk, records the upload, starts the import in the
 * background and sends the browser to the page that shows its progress.
 */
export async function handleDncUpload(request: Request, database: { db: Db; kind: DbKind }, actor: string) {
  const { db } = database;
  const env = getEnv();
  const dir = path.join(env.DATA_DIR === "memory" ? os.tmpdir() : path.resolve(env.DATA_DIR), "uploads");
  let received;
  try {
    received = await receiveMultipart(request, { dir, maxBytes: DNC_UPLOAD_MAX_BYTES, fileField: "file" });
  } catch (error) {
    if (error instanceof UploadError) return refused(error.status, error.message);
    throw error;
  }
  const { fields, file } = received;
  const problem = !file || file.bytes === 0
    ? "Choose the registry file to upload (a .txt or .zip download)."
    : !validDataDate(fields.dataDate)
      ? "Enter the date the registry data was downloaded (not in the future)."
      : fields.mode !== "add" && fields.mode !== "remove"
        ? "Choose whether the file’s numbers are added to or removed from the list."
        : null;
  if (problem) {
    if (file) await rm(file.path, { force: true });
    return refused(400, problem);
  }
  const id = await createDncUpload(db, { fileName: file!.name, mode: fields.mode as "add" | "remove", dataDate: fields.dataDate!, bytesTotal: file!.bytes, actor });
  logger.info({ uploadId: id, file: file!.name, bytes: file!.bytes, mode: fields.mode, actor }, "DNC upload received; importing");
  void runDncUpload(db, id, file!.path, file!.sha256, { applyInChunks: database.kind === "pglite" }).then(
    (upload) => logger.info({ uploadId: id, state: upload.state, lines: upload.lines, changed: upload.changed, badLines: upload.badLines, error: upload.error }, "DNC upload finished"),
    (error: unknown) => logger.error({ err: error, uploadId: id }, "DNC upload failed"),
  );
  throw redirect(`/admin/dnc?upload=${id}`, 303);
}
