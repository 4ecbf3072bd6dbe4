import type { FakeAwsError } from "../fake-errors.ts";
import type { FakeService } from "../fake-request.ts";
import { escapeXml, renderXml } from "./xml.ts";

export interface FakeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

const NAMESPACES: Record<"sts" | "iam" | "ec2" | "s3", string> = {
  sts: "https://sts.amazonaws.com/doc/2011-06-15/",
  iam: "https://iam.amazonaws.com/doc/2010-05-08/",
  ec2: "http://ec2.amazonaws.com/doc/2016-11-15/",
  s3: "http://s3.amazonaws.com/doc/2006-03-01/",
};
const XML = { "content-type": "text/xml" };

/** AWS Query (STS, IAM): `<OpResponse><OpResult>…</OpResult><ResponseMetadata>…`. */
export function queryResponse(
  service: "sts" | "iam",
  operation: string,
  result: object,
  requestId: string,
): FakeResponse {
  const content = renderXml(`${operation}Result`, result, "member");
  const metadata = `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata>`;
  const body = `<${operation}Response xmlns="${NAMESPACES[service]}">${content}${metadata}</${operation}Response>`;
  return { status: 200, headers: XML, body };
}

/** EC2 Query: no Result wrapper, lists of `<item>`, camelCase names. */
export function ec2Response(operation: string, result: object, requestId: string): FakeResponse {
  const content = Object.entries(result)
    .map(([key, value]) => renderXml(key, value, "item"))
    .join("");
  const body = `<${operation}Response xmlns="${NAMESPACES.ec2}"><requestId>${requestId}</requestId>${content}</${operation}Response>`;
  return { status: 200, headers: XML, body };
}

/** AWS JSON 1.1 (KMS, Organizations). */
export function jsonResponse(result: object): FakeResponse {
  return {
    status: 200,
    headers: { "content-type": "application/x-amz-json-1.1" },
    body: JSON.stringify(result),
  };
}

/** AWS REST-JSON (Security Hub). */
export function restJsonResponse(result: object): FakeResponse {
  return {
    status: 200,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(result),
  };
}

/** S3 REST-XML: one root element, lists flattened as S3 writes them. */
export function s3XmlResponse(
  root: string,
  content: object | string,
  headers: Readonly<Record<string, string>> = {},
): FakeResponse {
  const inner =
    typeof content === "string"
      ? escapeXml(content)
      : Object.entries(content)
          .map(([key, value]) => renderXml(key, value, null))
          .join("");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<${root} xmlns="${NAMESPACES.s3}">${inner}</${root}>`;
  return { status: 200, headers: { "content-type": "application/xml", ...headers }, body };
}

/** The error as the service's protocol writes it. */
export function errorResponse(
  service: FakeService,
  error: FakeAwsError,
  requestId: string,
  method: string,
): FakeResponse {
  const status = error.status;
  const code = escapeXml(error.code);
  const message = escapeXml(error.message);
  switch (service) {
    case "sts":
    case "iam": {
      const type = status >= 500 ? "Receiver" : "Sender";
      const body = `<ErrorResponse xmlns="${NAMESPACES[service]}"><Error><Type>${type}</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
      return { status, headers: XML, body };
    }
    case "ec2": {
      const body = `<Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>${requestId}</RequestID></Response>`;
      return { status, headers: XML, body };
    }
    case "securityhub":
      return {
        status,
        headers: { "content-type": "application/json", "x-amzn-errortype": error.code },
        body: JSON.stringify({ __type: error.code, message: error.message }),
      };
    case "sqs":
      // JSON 1.0 with the Query protocol's code in a header, as SQS answers compatible clients.
      return {
        status,
        headers: {
          "content-type": "application/x-amz-json-1.0",
          "x-amzn-query-error": `${error.code};${status >= 500 ? "Receiver" : "Sender"}`,
        },
        body: JSON.stringify({ __type: `com.amazonaws.sqs#${error.code}`, message: error.message }),
      };
    case "kms":
    case "organizations":
      return {
        status,
        headers: { "content-type": "application/x-amz-json-1.1" },
        body: JSON.stringify({ __type: error.code, message: error.message }),
      };
    case "s3": {
      const body =
        method === "HEAD"
          ? ""
          : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId><HostId>fake</HostId></Error>`;
      return { status, headers: { "content-type": "application/xml" }, body };
    }
  }
}
