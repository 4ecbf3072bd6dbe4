import type { ControlContext, PrincipalKind } from "./model-edits.ts";

/** Records an IAM call's event (IAM answers in us-east-1). */
export const emitIam = (
  ctx: ControlContext,
  eventName: string,
  requestParameters: object,
  response?: object,
) =>
  ctx.emit({
    service: "iam",
    eventName,
    region: "us-east-1",
    requestParameters: requestParameters as Record<string, unknown>,
    ...(response ? { responseElements: response as Record<string, unknown> } : {}),
  });

/** `userName`, `roleName`, `groupName`: how CloudTrail names the principal of a call. */
export const nameParam = (kind: PrincipalKind, name: string) => ({ [`${kind}Name`]: name });

/** Documents as CloudTrail records them: JSON text. */
export const documentText = (document: unknown) =>
  typeof document === "string" ? document : JSON.stringify(document);
