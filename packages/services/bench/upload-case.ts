import { execFile } from "node:child_process";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { startFakeAws } from "@sightline/aws-fake";
import { syntheticAccountModel } from "./synthetic-model.ts";
import type { UploadResult } from "./upload-process.ts";

const SCRIPT = fileURLToPath(new URL("./upload-process.ts", import.meta.url));
/** Small objects held alive during the upload: none, ~230 MiB, ~470 MiB of heap. */
const HELD_OBJECTS = [0, 1_000_000, 2_500_000];

/** A report-like CSV file of about `bytes`. */
async function writeCsv(file: string, bytes: number): Promise<void> {
  const out = createWriteStream(file);
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    let chunk = "";
    for (let j = 0; j < 10_000; j++)
      chunk += `2026-01-01T00:00:00.000Z,user-${i}-${j},arn:aws:iam::123456789012:user/user-${i}-${j},IAMUser,{},S3,read-data,arn:aws:s3:::data-${j % 300}\r\n`;
    written += chunk.length;
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

/**
 * The cost of a live heap to an upload: the same 1 GiB file through `createS3Inbox.putFile` to
 * the fake, from a child process holding no, some, then more live objects. Opt-in (`upload`).
 */
export async function runUpload(): Promise<UploadResult[]> {
  const dir = await mkdtemp(path.join(tmpdir(), "sightline-bench-upload-"));
  const fake = await startFakeAws(syntheticAccountModel("small"), { storeBodies: false });
  try {
    const file = path.join(dir, "report.csv");
    await writeCsv(file, 2 ** 30);
    const results: UploadResult[] = [];
    for (const objects of HELD_OBJECTS) {
      const config = {
        file,
        objects,
        clientOptions: fake.clientOptions,
        credentials: fake.serviceCredentials,
      };
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ["--conditions=@sightline/source", "--import", "tsx", "--expose-gc", SCRIPT],
        { env: { ...process.env, SIGHTLINE_BENCH_UPLOAD: JSON.stringify(config) } },
      );
      results.push(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as UploadResult);
    }
    return results;
  } finally {
    await fake.close();
    await rm(dir, { recursive: true, force: true });
  }
}
