/**
 * The failure marks of bulk listings over several keys (src/api/routing/bulk.ts): a key whose page
 * failed stays failed until the listing is read again from its first page and that page answers.
 */
import { expect, test } from "vitest";
import type { ApiClient } from "../../src/api/client.js";
import type { ApiError } from "../../src/api/result.js";
import { FailureMarks, type Listing } from "../../src/api/routing/bulk.js";

const client = {} as ApiClient;

function error(message: string): ApiError {
  return {
    kind: "network",
    cause: "connection-reset",
    errorCode: "ECONNRESET",
    status: null,
    message,
    outcome: "none",
    attempts: 4,
    method: "GET",
    route: "GET /projects/stats",
    path: "/projects/stats",
  };
}

const stats = (startDate: string, endDate: string, filter = ""): Listing => ({
  endpoint: "getProjectStats",
  filter,
  startDate,
  endDate,
});

test("a later page answering never clears the mark of a page that failed; the listing read anew does", () => {
  const marks = new FailureMarks();
  const window = stats("2026-11-01", "2026-12-01");
  marks.mark(client, window, error("page 1 failed"));
  // Only a first page clears (gather calls `clear` for a first page alone): re-marked by page 2's
  // failure of the next read, cleared by its first page.
  expect(marks.of(client)?.message).toBe("page 1 failed");
  marks.clear(client, window);
  expect(marks.of(client)).toBeUndefined();
  expect(marks.all()).toEqual([]);
});

test("an older window read in the same pass does not clear a newer window's mark; the next day's read does", () => {
  const marks = new FailureMarks();
  marks.mark(client, stats("2026-11-01", "2026-12-01"), error("newest window"));
  marks.clear(client, stats("2026-09-30", "2026-10-31"));
  expect(marks.of(client)?.message).toBe("newest window");
  // Another filter (the sending projects) over the same days answers for another listing.
  marks.clear(client, stats("2026-11-01", "2026-12-01", "status=active"));
  expect(marks.of(client)?.message).toBe("newest window");
  // The same end over another start (a budget's month) is another listing too.
  marks.clear(client, stats("2026-12-01", "2026-12-01"));
  expect(marks.of(client)?.message).toBe("newest window");
  marks.clear(client, stats("2026-11-02", "2026-12-02"));
  expect(marks.of(client)).toBeUndefined();
});

test("two listings failed for one key: clearing one leaves the other's failure", () => {
  const marks = new FailureMarks();
  marks.mark(client, { endpoint: "listContactLists", filter: "" }, error("lists"));
  marks.mark(client, stats("2026-11-01", "2026-12-01"), error("stats"));
  marks.clear(client, { endpoint: "listContactLists", filter: "" });
  expect(marks.all().map((m) => m.error.message)).toEqual(["stats"]);
});
