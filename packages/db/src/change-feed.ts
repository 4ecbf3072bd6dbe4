import postgres from "postgres";

export interface ChangeHandlers {
  /** A partner's configuration, customers or monitored accounts changed (committed). */
  partnerChanged(partnerId: string): void;
  apiKeyRevoked(keyId: string): void;
  /**
   * The feed (re)connected: notifications may have been missed while it was down, so a
   * cache must drop everything. Also called on the first connection.
   */
  resynchronised(): void;
  /** The connection was lost; changes are not seen until `resynchronised`. */
  disconnected(): void;
}

export interface ChangeFeed {
  close(): Promise<void>;
}

/**
 * Listens to the notifications the database's triggers send on every committed write
 * (migration 0001), on a dedicated connection that reconnects by itself.
 */
export async function listenForChanges(url: string, handlers: ChangeHandlers): Promise<ChangeFeed> {
  const client = postgres(url, {
    max: 1,
    onnotice: () => {},
    onclose: () => handlers.disconnected(),
    connection: { application_name: "sightline-change-feed" },
  });
  await client.listen(
    "sightline_partner_changed",
    (id) => handlers.partnerChanged(id),
    () => handlers.resynchronised(),
  );
  await client.listen("sightline_api_key_revoked", (id) => handlers.apiKeyRevoked(id));
  return { close: () => client.end({ timeout: 5 }) };
}
