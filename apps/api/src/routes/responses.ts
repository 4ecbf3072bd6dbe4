import { ErrorBody } from "@sightline/domain";

/** Error responses shared by the route definitions, for the OpenAPI document. */
export const validationFailed = {
  400: {
    description: "Invalid path parameter or body; `issues` names each field and rule",
    schema: ErrorBody,
  },
};
export const unauthorized = {
  401: { description: "Missing or unknown API key", schema: ErrorBody },
};
export const forbidden = {
  403: { description: "The caller is not authorized for the operation", schema: ErrorBody },
};
export const notFound = { 404: { description: "Not found", schema: ErrorBody } };
export const bodyErrors = {
  413: { description: "Body larger than 1 MiB", schema: ErrorBody },
  415: { description: "Content-Type is not application/json", schema: ErrorBody },
};
