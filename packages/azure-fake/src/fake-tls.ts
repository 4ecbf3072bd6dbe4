import { generate } from "selfsigned";

/** A self-signed certificate for 127.0.0.1 and localhost, made for one fake. */
export async function loopbackCertificate(): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    keySize: 2048,
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          { type: 2, value: "localhost" },
          { type: 7, ip: "127.0.0.1" },
        ],
      },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** A certificate and key for an application's client assertion (ClientCertificateCredential). */
export async function applicationCertificate(): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: "commonName", value: "sightline-auditor" }], {
    keySize: 2048,
    algorithm: "sha256",
  });
  return { cert: pems.cert, key: pems.private };
}
