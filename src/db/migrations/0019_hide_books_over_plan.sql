-- Hand-written (ADR 054): books an author shows beyond their plan's limit were kept from readers
-- by position at read time. They become hidden by the plan in the data, the same books readers
-- already did not see (public order: position, then oldest first, then id), so the author can
-- swap them. Limits as in src/shared/plans.ts; no subscription or an unknown tier reads as mini.
UPDATE "books" AS b SET "visibility_enabled" = false, "hidden_by_plan" = true
FROM (
  SELECT bk."id",
    row_number() OVER (PARTITION BY bk."user_id" ORDER BY bk."sort_order", bk."created_at", bk."id") AS n,
    CASE s."tier" WHEN 'midi' THEN 10 WHEN 'maxi' THEN 20 WHEN 'mega' THEN 50 ELSE 5 END AS lim
  FROM "books" bk LEFT JOIN "subscriptions" s ON s."user_id" = bk."user_id"
  WHERE bk."visibility_enabled"
) AS r
WHERE b."id" = r."id" AND r.n > r.lim;
