import { FakeAwsError } from "../fake-errors.ts";
import type { FakeServiceHandler } from "../fake-state.ts";
import { ec2Response } from "../protocols/responses.ts";
import { queryParams } from "./query-params.ts";

/** EC2 Query: DescribeRegions, listing the model's enabled regions. */
export const fakeEc2: FakeServiceHandler = {
  identify(request) {
    return { operation: queryParams(request).get("Action") ?? "" };
  },
  handle({ operation, state, requestId }) {
    if (operation !== "DescribeRegions") {
      throw new FakeAwsError("InvalidAction", `Unsupported EC2 action ${operation}`, 400);
    }
    const regions = state.model.regions ?? ["us-east-1"];
    const regionInfo = regions.map((region) => ({
      regionName: region,
      regionEndpoint: `ec2.${region}.amazonaws.com`,
      optInStatus: "opt-in-not-required",
    }));
    return ec2Response(operation, { regionInfo }, requestId);
  },
};
