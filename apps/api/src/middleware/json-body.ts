import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../context.ts";
import { AppError } from "../errors.ts";

export const MAX_BODY_BYTES = 1024 * 1024;
const jsonMediaType = /^application\/([\w.-]+\+)?json$/i;

function tooLarge(): AppError {
  return new AppError("PAYLOAD_TOO_LARGE", `Request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB)`);
}

/**
 * Guards a JSON body: 415 unless Content-Type is JSON, 413 past 1 MiB (declared or streamed),
 * then leaves the bytes in Hono's body cache for the validator to parse.
 */
export function jsonBody(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const mediaType = (c.req.header("content-type") ?? "").split(";")[0]?.trim() ?? "";
    if (!jsonMediaType.test(mediaType)) {
      throw new AppError(
        "UNSUPPORTED_MEDIA_TYPE",
        `Content-Type must be application/json (got ${mediaType ? `'${mediaType.slice(0, 100)}'` : "none"})`,
      );
    }
    const declared = Number(c.req.header("content-length") ?? "0");
    if (declared > MAX_BODY_BYTES) throw tooLarge();
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = c.req.raw.body?.getReader();
    while (reader) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BODY_BYTES) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
    const bytes = Buffer.concat(chunks);
    // Hono caches body promises here at run time (its type says ArrayBuffer).
    const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    c.req.bodyCache.arrayBuffer = Promise.resolve(buffer) as unknown as ArrayBuffer;
    await next();
  };
}
