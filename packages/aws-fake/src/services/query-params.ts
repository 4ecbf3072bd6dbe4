import type { FakeRequest } from "../fake-request.ts";

/** The form parameters of an AWS Query request (`Action=…&Version=…&…`). */
export function queryParams(request: FakeRequest): URLSearchParams {
  return new URLSearchParams(request.body.toString("utf8"));
}

/** Items of a Query list parameter: `Name.member.1`, `Name.member.2`, … */
export function queryList(params: URLSearchParams, name: string): string[] {
  const items: string[] = [];
  for (let i = 1; params.has(`${name}.member.${i}`); i++) {
    items.push(params.get(`${name}.member.${i}`) ?? "");
  }
  return items;
}
