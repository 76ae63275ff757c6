import zlib from "node:zlib";
import type { OptInPrefill } from "~/components/opt-in/opt-in-page";
import type { StaticFile } from "./static-files";

type Field = keyof OptInPrefill;
const FIELDS: readonly Field[] = ["clickId", "firstName", "lastName", "phone"];

/**
 * The prerendered opt-in document cut at the `value=""` of its four prefilled inputs, so a
 * request's values can be written in without rendering. The values are only in attributes: the
 * inline scripts (and so the CSP hashes) are the same for every query string, because the page
 * reads its prefill from the address, not from loader data (app/components/opt-in/prefill.ts).
 */
export type PrefillTemplate = {
  /** The document as prerendered (empty values), with its headers and twins. */
  file: StaticFile;
  /** The document around the slots: segments.length === slots.length + 1. */
  segments: Buffer[];
  /** Which value goes into each slot, in document order. */
  slots: Field[];
  /** Each segment as raw deflate, sync-flushed, so that they and stored blocks can be joined. */
  deflatedSegments: Buffer[];
};

/** Cuts the document at each prefilled input's empty value; throws if the page changed shape. */
export function prefillTemplate(file: StaticFile): PrefillTemplate {
  const html = file.body.toString("latin1");
  const cuts: { at: number; field: Field }[] = [];
  for (const field of FIELDS) {
    const inputs = [...html.matchAll(new RegExp(`<input\\b[^>]*\\bname="${field}"[^>]*>`, "g"))];
    const value = inputs.length === 1 ? inputs[0]![0].indexOf(' value=""') : -1;
    if (value < 0 || inputs[0]![0].indexOf(' value=""', value + 1) >= 0) {
      throw new Error(`The opt-in page must have one input named ${field} with an empty value attribute`);
    }
    cuts.push({ at: inputs[0]!.index + value + ' value="'.length, field });
  }
  cuts.sort((a, b) => a.at - b.at);
  const segments: Buffer[] = [];
  let from = 0;
  for (const cut of cuts) {
    segments.push(file.body.subarray(from, cut.at));
    from = cut.at;
  }
  segments.push(file.body.subarray(from));
  return {
    file,
    segments,
    slots: cuts.map((cut) => cut.field),
    deflatedSegments: segments.map((segment) =>
      zlib.deflateRawSync(segment, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }),
    ),
  };
}

const ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };

/** Escapes an attribute value exactly as React's server renderer does, so hydration matches. */
export function escapeAttribute(text: string) {
  return text.replace(/["&'<>]/g, (char) => ESCAPES[char]!);
}

function values(template: PrefillTemplate, prefill: OptInPrefill) {
  return template.slots.map((field) => Buffer.from(escapeAttribute(prefill[field]), "utf8"));
}

/** The document with the values written in. */
export function prefilledDocument(template: PrefillTemplate, prefill: OptInPrefill) {
  const written = values(template, prefill);
  const parts: Buffer[] = [template.segments[0]!];
  written.forEach((value, index) => parts.push(value, template.segments[index + 1]!));
  return Buffer.concat(parts);
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final, empty block with fixed codes: ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);

/** A stored (uncompressed) deflate block; the stream is byte-aligned after a sync flush. */
function storedBlock(data: Buffer) {
  const header = Buffer.alloc(5);
  header[0] = 0;
  header.writeUInt16LE(data.length, 1);
  header.writeUInt16LE(~data.length & 0xffff, 3);
  return [header, data];
}

/**
 * The same document gzipped without compressing it per request: the build-time deflate of each
 * segment (each a complete, sync-flushed stream of its own, so none refers back past its start)
 * joined with the values as stored blocks. Only the CRC covers the whole document.
 */
export function prefilledGzip(template: PrefillTemplate, prefill: OptInPrefill) {
  const written = values(template, prefill);
  const parts: Buffer[] = [GZIP_HEADER, template.deflatedSegments[0]!];
  let crc = zlib.crc32(template.segments[0]!);
  let size = template.segments[0]!.length;
  written.forEach((value, index) => {
    // A value is at most 100 characters (readOptInPrefill), far below a stored block's 65,535 bytes.
    if (value.length > 0) parts.push(...storedBlock(value));
    const segment = template.segments[index + 1]!;
    parts.push(template.deflatedSegments[index + 1]!);
    crc = zlib.crc32(segment, zlib.crc32(value, crc));
    size += value.length + segment.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(FINAL_BLOCK, trailer);
  return Buffer.concat(parts);
}
