import os from "node:os";
import path from "node:path";
import { rm } from "node:fs/promises";
import { type data, isRouteErrorResponse } from "react-router";
import { requireEditor } from "~/auth/guards.server";
import type { Db } from "~/db/client.server";
import { MEDIA_NOTICES, type Notice } from "~/lib/notices";
import { MEDIA_UPLOAD_MAX_BYTES, storeImage, type MediaAsset } from "~/services/content/media.server";
import { getEnv } from "./env.server";
import { logger } from "./logger.server";
import { receiveMultipart, UploadError } from "./multipart-upload.server";

export type MediaUploadAnswer = { status: 201; asset: MediaAsset } | { status: 400 | 413 | 415; notice: Notice };

const STATUS = { alt_required: 400, alt_too_long: 400, not_image: 415, too_many_pixels: 413 } as const;

/**
 * POST /admin/media (multipart: `file`, `alt`): streams the file to a temporary file (at most
 * 15 MB, else 413), lets sharp decide whether it is an image, stores the resized files, and
 * removes the temporary file whatever happens.
 */
export async function receiveMediaUpload(request: Request, db: Db, actor: string): Promise<MediaUploadAnswer> {
  const env = getEnv();
  const dir = path.join(env.DATA_DIR === "memory" ? os.tmpdir() : path.resolve(env.DATA_DIR), "uploads");
  let received;
  try {
    received = await receiveMultipart(request, { dir, maxBytes: MEDIA_UPLOAD_MAX_BYTES, fileField: "file" });
  } catch (error) {
    if (error instanceof UploadError) return { status: error.status, notice: { ...MEDIA_NOTICES.refused, description: error.message } };
    throw error;
  }
  const { fields, file } = received;
  try {
    if (!file || file.bytes === 0) return { status: 400, notice: MEDIA_NOTICES.no_file };
    const result = await storeImage(db, { file: file.path, originalName: file.name, alt: fields.alt ?? "", actor });
    if (!result.ok) return { status: STATUS[result.code], notice: MEDIA_NOTICES[result.code] };
    logger.info({ assetId: result.asset.id, files: result.files, bytes: file.bytes, actor }, "image uploaded");
    return { status: 201, asset: result.asset };
  } finally {
    if (file) await rm(file.path, { force: true });
  }
}

/** The JSON form of the endpoint (the editor's image button sends `Accept: application/json`). */
export async function mediaUploadJson(request: Request, db: () => Promise<Db>): Promise<Response> {
  const headers = { "Cache-Control": "no-store" };
  let user;
  try {
    user = await requireEditor(request);
  } catch (thrown) {
    if (thrown instanceof Response) return Response.json({ error: "Sign in as an editor first." }, { status: 401, headers });
    if (isDataWithInit(thrown)) return Response.json({ error: (thrown.data as { message?: string }).message ?? "Forbidden" }, { status: thrown.init?.status ?? 403, headers });
    if (isRouteErrorResponse(thrown)) return Response.json({ error: "Forbidden" }, { status: thrown.status, headers });
    throw thrown;
  }
  const answer = await receiveMediaUpload(request, await db(), user.email);
  if (answer.status === 201) return Response.json(answer.asset, { status: 201, headers });
  return Response.json({ error: answer.notice.description, title: answer.notice.title }, { status: answer.status, headers });
}

function isDataWithInit(value: unknown): value is ReturnType<typeof data> {
  return typeof value === "object" && value !== null && (value as { type?: unknown }).type === "DataWithResponseInit";
}
