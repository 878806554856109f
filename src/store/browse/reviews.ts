/**
 * The dashboard's review listing: newest activity first, filtered by status, paged by keyset on
 * reviews_updated / reviews_status_updated (migration 007). Reviewers and finding counts come from
 * their tables' (review_id, …) primary keys: a handful of rows per review shown. A review's detail
 * reads store/reviews.ts.
 */
import type { Database } from "bun:sqlite";
import { beforeBound, clampLimit, filterParams, paged, whereAll, type Page, type Params } from "./paging.ts";
import type { ReviewMode, ReviewStatus, ReviewSummary } from "../reviews.ts";

export interface ReviewListFilter {
  status?: ReviewStatus;
  /** The previous page's `next`: undefined for page 1. */
  before?: string | undefined;
  limit?: number;
}

export type ReviewListRow = ReviewSummary;

interface ReviewListSql {
  id: string;
  mode: ReviewMode;
  status: ReviewStatus;
  critical: number;
  important: number;
  minor: number;
  created_at: number;
  updated_at: number;
}

const findings = (severity: string) => `(SELECT count(*) FROM review_findings f WHERE f.review_id = v.id AND f.severity = '${severity}') AS ${severity}`;

/** One statement per filter, so a status searches its own index from the bound. Exported for the query-plan test. */
export function reviewListSql(filter: Pick<ReviewListFilter, "status">): string {
  const where = [...(filter.status ? ["v.status = $status"] : []), beforeBound("reviews", "v", "updated_at")];
  return `SELECT v.id, v.mode, v.status, v.created_at, v.updated_at,
    ${findings("critical")}, ${findings("important")}, ${findings("minor")}
  FROM reviews v ${whereAll(where)}
  ORDER BY v.updated_at DESC, v.id DESC LIMIT $limit`;
}

export function listReviews(db: Database, filter: ReviewListFilter): Page<ReviewListRow> {
  const limit = clampLimit(filter.limit);
  const params: Params = { ...filterParams({ status: filter.status }), before: filter.before ?? null, limit: limit + 1 };
  const rows = db.query<ReviewListSql, Params>(reviewListSql(filter)).all(params);
  // Reviewers in their planned order, one primary-key lookup per review shown (an ordered subquery
  // in the listing's SQL sorted each review's reviewers in a temporary b-tree).
  const reviewers = db.query<{ agent_id: string }, { id: string }>(`SELECT agent_id FROM review_reviewers WHERE review_id = $id ORDER BY n`);
  return paged(
    rows,
    limit,
    (r) =>
      toRow(
        r,
        reviewers.all({ id: r.id }).map((x) => x.agent_id),
      ),
    (r) => r.id,
  );
}

function toRow(r: ReviewListSql, reviewers: string[]): ReviewListRow {
  return {
    id: r.id,
    mode: r.mode,
    status: r.status,
    reviewers,
    findings: { critical: r.critical, important: r.important, minor: r.minor },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}
