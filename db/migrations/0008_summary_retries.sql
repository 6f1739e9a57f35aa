ALTER TABLE "summaries" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "summaries" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
-- Hand-added: papers that failed before retries existed are tried again on the next run (their first attempt is counted).
UPDATE "summaries" SET "attempts" = 1, "retry_at" = now() WHERE "status" = 'failed';--> statement-breakpoint
-- Hand-added: the day's spend is now one ledger in app_state (llm-spend:<UTC day>); carry over what summaries and the relevance judge spent today.
INSERT INTO "app_state" ("key", "value", "updated_at")
  SELECT 'llm-spend:' || to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD'), jsonb_build_object('n', sum("cost")), now()
  FROM (
    SELECT "cost_usd" AS "cost" FROM "summaries" WHERE "created_at" >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
    UNION ALL
    SELECT "cost_usd" FROM "family_judgements" WHERE "created_at" >= date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
  ) AS "today" HAVING sum("cost") > 0
ON CONFLICT ("key") DO UPDATE SET "value" = jsonb_build_object('n', coalesce("app_state"."value"->>'n', "app_state"."value"->>'usd', '0')::numeric + ("excluded"."value"->>'n')::numeric);
