import { describe, expect, it } from "vitest";
import { openAesGcm, sealAesGcm } from "../src/credentials/aes-gcm.ts";

const hex = (text: string) => Buffer.from(text.replace(/\s/g, ""), "hex");

// The GCM specification's test case 16 (AES-256, 96-bit IV, with additional data).
const vector = {
  key: hex("feffe9928665731c6d6a8f9467308308 feffe9928665731c6d6a8f9467308308"),
  iv: hex("cafebabefacedbaddecaf888"),
  plaintext: hex(
    "d9313225f88406e5a55909c5aff5269a 86a7a9531534f7da2e4c303d8a318a72 1c3c0c95956809532fcf0e2449a6b525 b16aedf5aa0de657ba637b39",
  ),
  aad: hex("feedfacedeadbeeffeedfacedeadbeef abaddad2"),
  ciphertext: hex(
    "522dc1f099567d07f47f37a32a84427d 643a8cdcbfe5c0c97598a2bd2555d1aa 8cb08e48590dbb3da7b08b1056828838 c5f61e6393ba7a0abcc9f662",
  ),
  tag: hex("76fc6ece0f4e1768cddf8853bb2d551b"),
};

describe("AES-256-GCM", () => {
  it("matches the specification's known answer", () => {
    const sealed = sealAesGcm(vector.key, vector.iv, vector.plaintext, vector.aad);
    expect(sealed.ciphertext.toString("hex")).toBe(vector.ciphertext.toString("hex"));
    expect(sealed.tag.toString("hex")).toBe(vector.tag.toString("hex"));
    expect(openAesGcm(vector.key, vector.iv, sealed, vector.aad)).toEqual(vector.plaintext);
  });

  it("refuses a wrong AAD, a flipped ciphertext byte and a flipped tag byte", () => {
    const sealed = { ciphertext: vector.ciphertext, tag: vector.tag };
    const flip = (bytes: Buffer, at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = (copy[at] ?? 0) ^ 0x01;
      return copy;
    };
    expect(() => openAesGcm(vector.key, vector.iv, sealed, Buffer.from("other"))).toThrow();
    expect(() =>
      openAesGcm(
        vector.key,
        vector.iv,
        { ...sealed, ciphertext: flip(vector.ciphertext, 7) },
        vector.aad,
      ),
    ).toThrow();
    expect(() =>
      openAesGcm(vector.key, vector.iv, { ...sealed, tag: flip(vector.tag, 15) }, vector.aad),
    ).toThrow();
  });
});
