/** An expected problem in the input, reported as data rather than thrown. */
export interface Issue {
  /** Where the problem is, e.g. `UserDetailList[3].UserPolicyList[0].PolicyDocument`. */
  path: string;
  message: string;
  severity: "error" | "warning";
}

export function issueAt(
  path: string,
  message: string,
  severity: Issue["severity"] = "error",
): Issue {
  return { path, message, severity };
}
