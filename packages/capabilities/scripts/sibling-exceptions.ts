/**
 * Documented exceptions to the sibling-consistency check (scripts/sibling-consistency.ts), keyed
 * by the action that does not treat its noun as data (canonical case), with the reason.
 */
const OBJECT_TAGS =
  "as k9's S3 map: reading an object's tags is read-config, writing them write-data (they travel with the object)";

export const SIBLING_EXCEPTIONS: Readonly<Record<string, string>> = {
  "cloudwatch:GetMetricData":
    "metric datapoints read as configuration, as GetMetricStatistics and AWS's ViewOnlyAccess; publishing them (PutMetricData) writes telemetry",
  "s3:GetObjectTagging": OBJECT_TAGS,
  "s3:GetObjectVersionTagging": OBJECT_TAGS,
  "s3-object-lambda:GetObjectTagging": OBJECT_TAGS,
  "s3-object-lambda:GetObjectVersionTagging": OBJECT_TAGS,
  "s3-outposts:GetObjectTagging": OBJECT_TAGS,
  "s3-outposts:GetObjectVersionTagging": OBJECT_TAGS,
};
