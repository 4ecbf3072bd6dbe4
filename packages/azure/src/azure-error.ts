import { AppError } from "@sightline/domain";

/** What a request was reading, and the permission Azure requires for it: both go in messages. */
export interface ReadPurpose {
  /** e.g. `the role assignments of subscription <id>` */
  readonly what: string;
  /** e.g. `Microsoft.Authorization/roleAssignments/read (in Reader) on the subscription` */
  readonly permission: string;
}

const MAX_QUOTED = 300;

/** `{ error: { code, message } }` of ARM and Graph, quoted briefly; never a token or a secret. */
export function azureErrorDetail(body: unknown): string {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = typeof error?.code === "string" ? error.code : undefined;
  const message = typeof error?.message === "string" ? error.message.slice(0, MAX_QUOTED) : "";
  return code ? `${code}${message ? `: ${message}` : ""}` : message;
}

/** The AppError of an ARM or Graph answer that is not a success. */
export function httpFailure(
  status: number,
  body: unknown,
  purpose: ReadPurpose,
  retryAfter?: string,
): AppError {
  const detail = azureErrorDetail(body);
  const quoted = `HTTP ${status}${detail ? `, ${detail}` : ""}`;
  if (status === 401)
    return new AppError(
      "CREDENTIAL_INVALID",
      `Azure refused Sightline's token while reading ${purpose.what} (${quoted}): check that Sightline's application is consented in the customer's tenant`,
    );
  if (status === 403)
    return new AppError(
      "ACCESS_DENIED",
      `Sightline's application may not read ${purpose.what} (${quoted}): it needs ${purpose.permission}; see deploy/azure`,
    );
  if (status === 404)
    return new AppError(
      "ACCESS_DENIED",
      `${purpose.what} was not found or is not visible to Sightline's application (${quoted}): it needs ${purpose.permission}; see deploy/azure`,
    );
  if (status === 429)
    return new AppError(
      "THROTTLED",
      `Azure kept throttling Sightline while reading ${purpose.what} (${quoted}${retryAfter ? `, Retry-After ${retryAfter}` : ""})`,
      retryAfter && /^\d+$/.test(retryAfter)
        ? { details: { retryAfterSeconds: Number(retryAfter) } }
        : {},
    );
  if (status >= 500)
    return new AppError(
      "CLOUD_UNAVAILABLE",
      `Azure failed while Sightline was reading ${purpose.what} (${quoted})`,
    );
  return new AppError(
    "CLOUD_UNAVAILABLE",
    `Azure answered ${quoted} while Sightline was reading ${purpose.what}`,
    { retryable: false },
  );
}

/** What `@azure/identity` throws when Microsoft Entra ID refuses or cannot give a token. */
const IDENTITY_ERRORS = new Set([
  "AuthenticationError",
  "AuthenticationRequiredError",
  "CredentialUnavailableError",
]);

/** A failure before any answer: the token could not be had, or the network failed. */
export function requestFailure(error: unknown, purpose: ReadPurpose): AppError {
  if (error instanceof AppError) return error;
  const err = error as { name?: string; message?: string; code?: string; statusCode?: number };
  const message = (err.message ?? String(error)).split("\n")[0]?.slice(0, MAX_QUOTED) ?? "";
  if (IDENTITY_ERRORS.has(err.name ?? "")) {
    const aadsts = /AADSTS\d+/.exec(err.message ?? "")?.[0];
    const hint =
      aadsts === "AADSTS700016"
        ? ": the application is not in this tenant; an administrator of the tenant must consent to it (deploy/azure)"
        : aadsts === "AADSTS7000215" || aadsts === "AADSTS700027"
          ? ": Sightline's client secret or certificate is wrong or expired (operator configuration)"
          : aadsts === "AADSTS90002"
            ? ": the tenant does not exist; check auditorAuthConfig.tenantId"
            : "";
    const network = /ECONNREFUSED|ENOTFOUND|ETIMEDOUT|ECONNRESET|network/i.test(message);
    return new AppError(
      network ? "CLOUD_UNAVAILABLE" : "CREDENTIAL_INVALID",
      `Sightline could not get a token for ${purpose.what} from Microsoft Entra ID (${aadsts ?? err.name})${hint}`,
      { cause: error },
    );
  }
  if (err.name === "AbortError")
    return new AppError("CLOUD_UNAVAILABLE", `Reading ${purpose.what} timed out`, { cause: error });
  return new AppError(
    "CLOUD_UNAVAILABLE",
    `Sightline could not reach Azure while reading ${purpose.what} (${err.code ?? err.name ?? "error"})`,
    { cause: error },
  );
}
