import { UNSAFE_ErrorResponseImpl as ErrorResponse } from "react-router";
import { describe, expect, it } from "vitest";
import { refusedRequestStatus } from "./refused-request";

describe("refusedRequestStatus", () => {
  it("names the client's mistakes: thrown 4xx answers and the router's origin refusal", () => {
    expect(refusedRequestStatus(new ErrorResponse(405, "Method Not Allowed", null))).toBe(405);
    expect(refusedRequestStatus(new ErrorResponse(404, "Not Found", null))).toBe(404);
    expect(refusedRequestStatus(new Error("Bad Request"))).toBe(400);
  });

  it("keeps faults of the server as faults", () => {
    expect(refusedRequestStatus(new Error("relation does not exist"))).toBeUndefined();
    expect(refusedRequestStatus(new TypeError("x is undefined"))).toBeUndefined();
    expect(refusedRequestStatus(new ErrorResponse(500, "Internal Server Error", null))).toBeUndefined();
  });
});
