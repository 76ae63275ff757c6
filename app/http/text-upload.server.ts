/**
 * A small text file posted with a form (multipart/form-data, field `file`), read whole into memory:
 * for files of a few MB that are parsed in one go (the newsletter import, RND results). Large
 * files stream to disk instead (multipart-upload.server.ts). A refusal says why, with its status.
 */
export type TextUpload = { ok: true; text: string; fileName: string; form: FormData } | { ok: false; status: 400 | 413 | 415; message: string };

export async function readTextUpload(request: Request, maxBytes: number, missingFile: string): Promise<TextUpload> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return { ok: false, status: 415, message: "Send the form with its file (multipart/form-data)." };
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (!(declared <= maxBytes)) return { ok: false, status: 413, message: `The file is too large: at most ${maxBytes / 1024 / 1024} MB.` };
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    return { ok: false, status: 400, message: "The upload could not be read. Try again." };
  }
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) return { ok: false, status: 400, message: missingFile };
  return { ok: true, text: new TextDecoder("utf-8", { fatal: false }).decode(await file.arrayBuffer()), fileName: file.name, form };
}
