import { and, eq, inArray, lt } from "drizzle-orm";
import type { Executor } from "./client.ts";
import { rawQuery } from "./raw-query.ts";
import { openMultipartUploads } from "./schema-queue.ts";

/** A multipart upload a delivery started and has not completed or aborted. */
export interface OpenMultipartUpload {
  uploadId: string;
  bucket: string;
  key: string;
  region: string;
  expectedBucketOwner?: string;
  executionId: string;
  attempt: number;
  createdAt: Date;
}

type Row = typeof openMultipartUploads.$inferSelect;

function fromRow({ expectedBucketOwner, ...row }: Row): OpenMultipartUpload {
  return { ...row, ...(expectedBucketOwner ? { expectedBucketOwner } : {}) };
}

/** Records an upload right after CreateMultipartUpload, before any part is sent. */
export async function recordMultipartUpload(
  db: Executor,
  upload: Omit<OpenMultipartUpload, "createdAt">,
): Promise<void> {
  await db
    .insert(openMultipartUploads)
    .values({ ...upload, expectedBucketOwner: upload.expectedBucketOwner ?? null })
    .onConflictDoNothing();
}

/** Forgets an upload once it was completed or aborted (or S3 no longer knows it). */
export async function forgetMultipartUpload(db: Executor, uploadId: string): Promise<void> {
  await db.delete(openMultipartUploads).where(eq(openMultipartUploads.uploadId, uploadId));
}

/** The uploads that earlier attempts of an execution left open (the attempt `attempt` runs). */
export async function multipartUploadsBefore(
  db: Executor,
  executionId: string,
  attempt: number,
): Promise<OpenMultipartUpload[]> {
  const rows = await db
    .select()
    .from(openMultipartUploads)
    .where(
      and(
        eq(openMultipartUploads.executionId, executionId),
        lt(openMultipartUploads.attempt, attempt),
      ),
    );
  return rows.map(fromRow);
}

/**
 * Uploads recorded before `startedBefore` that no attempt holding its lease can still use: the
 * execution has ended (or is gone), another attempt runs it now, or no live lease names it.
 */
export async function abandonedMultipartUploads(
  db: Executor,
  startedBefore: Date,
  now: Date,
): Promise<OpenMultipartUpload[]> {
  const rows = await db.execute(
    rawQuery(
      `select u.upload_id from open_multipart_uploads u
       left join executions e on e.execution_id = u.execution_id
       where u.created_at < $1::timestamptz
         and not coalesce(
           e.status = 'running' and e.attempts = u.attempt
           and exists (select 1 from job_leases l
                       where l.execution_id = u.execution_id and l.expires_at > $2::timestamptz),
           false)
       order by u.created_at limit 1000`,
      [startedBefore.toISOString(), now.toISOString()],
    ),
  );
  const ids = rows.map((r) => String(r.upload_id));
  if (ids.length === 0) return [];
  const found = await db
    .select()
    .from(openMultipartUploads)
    .where(inArray(openMultipartUploads.uploadId, ids));
  return found.map(fromRow);
}
