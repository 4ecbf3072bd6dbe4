import { describe, expect, it } from "vitest";
import { parseCredentialReport } from "../src/collect/parse-credential-report.ts";
import { parseCsv } from "../src/collect/parse-csv.ts";

const HEADER =
  "user,arn,user_creation_time,password_enabled,password_last_used,password_last_changed,password_next_rotation,mfa_active,access_key_1_active,access_key_1_last_rotated,access_key_1_last_used_date,access_key_1_last_used_region,access_key_1_last_used_service,access_key_2_active,access_key_2_last_rotated,access_key_2_last_used_date,access_key_2_last_used_region,access_key_2_last_used_service,cert_1_active,cert_1_last_rotated,cert_2_active,cert_2_last_rotated";

describe("parseCredentialReport", () => {
  it("reads password and access key use by column name, N/A and no_information as absent", () => {
    const csv = [
      HEADER,
      "<root_account>,arn:aws:iam::210987654321:root,2020-01-01T00:00:00+00:00,not_supported,2024-05-30T08:00:00+00:00,not_supported,not_supported,true,false,N/A,N/A,N/A,N/A,false,N/A,N/A,N/A,N/A,false,N/A,false,N/A",
      "alice,arn:aws:iam::210987654321:user/alice,2021-03-04T05:06:07+00:00,true,no_information,2023-01-01T00:00:00+00:00,N/A,false,true,2023-02-01T00:00:00+00:00,2024-05-31T10:00:00+00:00,eu-west-1,s3,false,N/A,N/A,N/A,N/A,false,N/A,false,N/A",
    ].join("\r\n");
    expect(parseCredentialReport(csv)).toEqual([
      {
        user: "<root_account>",
        arn: "arn:aws:iam::210987654321:root",
        userCreationTime: "2020-01-01T00:00:00.000Z",
        passwordEnabled: undefined,
        passwordLastUsed: "2024-05-30T08:00:00.000Z",
        passwordLastChanged: undefined,
        passwordNextRotation: undefined,
        mfaActive: true,
        accessKeys: [{ active: false }, { active: false }],
      },
      {
        user: "alice",
        arn: "arn:aws:iam::210987654321:user/alice",
        userCreationTime: "2021-03-04T05:06:07.000Z",
        passwordEnabled: true,
        passwordLastUsed: undefined,
        passwordLastChanged: "2023-01-01T00:00:00.000Z",
        passwordNextRotation: undefined,
        mfaActive: false,
        accessKeys: [
          {
            active: true,
            lastRotated: "2023-02-01T00:00:00.000Z",
            lastUsedDate: "2024-05-31T10:00:00.000Z",
            lastUsedRegion: "eu-west-1",
            lastUsedService: "s3",
          },
          { active: false },
        ],
      },
    ]);
  });

  it("keeps columns aligned when a name is quoted and AWS adds a column", () => {
    const csv = `${HEADER},new_column\n"ops,eu",arn:aws:iam::210987654321:user/ops-eu,N/A,false,N/A,N/A,N/A,false,false,N/A,N/A,N/A,N/A,true,N/A,N/A,N/A,N/A,false,N/A,false,N/A,x\n`;
    const [row] = parseCredentialReport(csv);
    expect(row?.user).toBe("ops,eu");
    expect(row?.accessKeys[1].active).toBe(true);
  });
});

describe("parseCsv", () => {
  it("handles doubled quotes, quoted line breaks and a missing final newline", () => {
    expect(parseCsv('a,"b ""c""","d\ne"\n1,2,3')).toEqual([
      ["a", 'b "c"', "d\ne"],
      ["1", "2", "3"],
    ]);
  });
});
