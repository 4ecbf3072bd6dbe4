import { describe, expect, it } from "vitest";
import {
  AWS_EVENT_NAMES,
  AwsCloudTrailEvent,
  type AwsEventSource,
  targetsOfEvent,
} from "../src/index.ts";
import { envelopeOf, readEventFixtures } from "./support/aws-event-fixtures.ts";

const fixtures = readEventFixtures();

describe("targetsOfEvent fixtures", () => {
  it("has fixtures, each citing documentation", () => {
    expect(fixtures.length).toBeGreaterThan(10);
    for (const { name, fixture } of fixtures)
      expect(fixture.description, name).toMatch(/'[^']{5,}'/);
  });

  it("gives targets for every listed event in some fixture", () => {
    const covered = new Set(
      fixtures.flatMap(({ fixture }) =>
        fixture.cases
          .filter((c) => c.expect.status === "targets")
          .map((c) => `${c.eventSource ?? fixture.eventSource} ${c.eventName}`),
      ),
    );
    const listed = (Object.keys(AWS_EVENT_NAMES) as AwsEventSource[]).flatMap((source) =>
      AWS_EVENT_NAMES[source].map((name) => `${source} ${name}`),
    );
    expect(listed.filter((event) => !covered.has(event))).toEqual([]);
  });

  for (const { name, fixture } of fixtures) {
    describe(name, () => {
      fixture.cases.forEach((c, i) => {
        it(c.name ?? `case ${i}: ${c.eventName}`, () => {
          const parsed = AwsCloudTrailEvent.safeParse(envelopeOf(fixture, c));
          expect(parsed.error?.issues ?? []).toEqual([]);
          if (!parsed.success) return;
          const outcome = targetsOfEvent(parsed.data);
          if (c.expect.status === "targets") {
            expect(outcome).toEqual(c.expect);
            return;
          }
          expect(outcome.status).toBe(c.expect.status);
          const reason = "reason" in outcome ? outcome.reason : "";
          expect(reason).toContain(c.expect.reasonMentions ?? "");
          expect(reason).toContain(c.eventName);
        });
      });
    });
  }
});
