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
  /** CRC-32 of each segment, and the operator that moves a CRC past it (see crcShift). */
  segmentCrcs: number[];
  segmentShifts: Uint32Array[];
  /** The gzip header with the first segment, and the last segment with the final block. */
  gzipHead: Buffer;
  gzipTail: Buffer;
};

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final, empty block with fixed codes: ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([0x03, 0x00]);
/** A stored block's header: BFINAL 0, BTYPE 00, then LEN and NLEN (the stream is byte-aligned after a sync flush). */
const STORED_HEADER = 5;

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
  const deflatedSegments = segments.map((segment) => zlib.deflateRawSync(segment, { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  return {
    file,
    segments,
    slots: cuts.map((cut) => cut.field),
    deflatedSegments,
    gzipHead: Buffer.concat([GZIP_HEADER, deflatedSegments[0]!]),
    gzipTail: Buffer.concat([deflatedSegments.at(-1)!, FINAL_BLOCK]),
    segmentCrcs: segments.map((segment) => zlib.crc32(segment)),
    segmentShifts: segments.map((segment) => crcShift(segment.length)),
  };
}

// CRC-32 of a whole answer from the CRCs of its parts (zlib's crc32_combine with the operator for
// each segment's length made once): crc(A + B) = shift(crc(A), length(B)) XOR crc(B). Running
// zlib.crc32 over the 14 KB document for each answer cost more than everything else it does.
const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, byte) => {
  let c = byte;
  for (let bit = 0; bit < 8; bit++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** The CRC register after `length` more zero bytes: linear, so a 32x32 bit matrix (one column per bit). */
function crcShift(length: number) {
  return Uint32Array.from({ length: 32 }, (_, bit) => {
    let c = (1 << bit) >>> 0;
    for (let i = 0; i < length; i++) c = CRC_TABLE[c & 0xff]! ^ (c >>> 8);
    return c >>> 0;
  });
}

function shiftCrc(shift: Uint32Array, crc: number) {
  let result = 0;
  for (let bit = 0; crc !== 0; bit++, crc >>>= 1) if (crc & 1) result ^= shift[bit]!;
  return result >>> 0;
}

const ESCAPES: Record<string, string> = { '"': "&quot;", "&": "&amp;", "'": "&#x27;", "<": "&lt;", ">": "&gt;" };

/** Escapes an attribute value exactly as React's server renderer does, so hydration matches. */
export function escapeAttribute(text: string) {
  return text.replace(/["&'<>]/g, (char) => ESCAPES[char]!);
}

function escapedValues(template: PrefillTemplate, prefill: OptInPrefill) {
  return template.slots.map((field) => escapeAttribute(prefill[field]));
}

/** The document with the values written in. */
export function prefilledDocument(template: PrefillTemplate, prefill: OptInPrefill) {
  const values = escapedValues(template, prefill);
  const size = template.file.body.length + values.reduce((sum, value) => sum + Buffer.byteLength(value), 0);
  const out = Buffer.allocUnsafe(size);
  let at = template.segments[0]!.copy(out, 0);
  values.forEach((value, index) => {
    at += out.write(value, at, "utf8");
    at += template.segments[index + 1]!.copy(out, at);
  });
  return out;
}

/**
 * The same document gzipped without compressing it per request: the deflate of each segment made
 * at start (each a complete, sync-flushed stream of its own, so none refers back past its start)
 * joined with the values as stored blocks. Returned as chunks for one writev: the large first and
 * last parts are sent as they are, only the middle (values and the short segments between them)
 * is built per request, small enough for Node's buffer pool.
 */
export function prefilledGzip(template: PrefillTemplate, prefill: OptInPrefill): Buffer[] {
  const values = escapedValues(template, prefill);
  const lengths = values.map((value) => Buffer.byteLength(value));
  const last = template.slots.length;
  let size = 0;
  for (let index = 1; index < last; index++) size += template.deflatedSegments[index]!.length;
  // A value is at most 100 characters (readOptInPrefill), far below a stored block's 65,535 bytes.
  for (const length of lengths) size += length > 0 ? STORED_HEADER + length : 0;
  const middle = Buffer.allocUnsafe(size);
  const trailer = Buffer.allocUnsafe(8);
  let at = 0;
  let crc = template.segmentCrcs[0]!;
  let total = template.segments[0]!.length;
  values.forEach((value, index) => {
    const length = lengths[index]!;
    if (length > 0) {
      middle[at] = 0;
      middle.writeUInt16LE(length, at + 1);
      middle.writeUInt16LE(~length & 0xffff, at + 3);
      at += STORED_HEADER;
      middle.write(value, at, "utf8");
      crc = zlib.crc32(middle.subarray(at, at + length), crc);
      at += length;
    }
    crc = (shiftCrc(template.segmentShifts[index + 1]!, crc) ^ template.segmentCrcs[index + 1]!) >>> 0;
    total += length + template.segments[index + 1]!.length;
    if (index + 1 < last) at += template.deflatedSegments[index + 1]!.copy(middle, at);
  });
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(total >>> 0, 4);
  return [template.gzipHead, middle, template.gzipTail, trailer];
}
