CREATE TABLE "family_judgements" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"judge_version" text NOT NULL,
	"status" text NOT NULL,
	"in_family" boolean,
	"reason" text,
	"families" text[] DEFAULT '{}'::text[] NOT NULL,
	"model" text,
	"error" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cache_read_tokens" integer DEFAULT 0 NOT NULL,
	"cache_write_tokens" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(12, 6) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "family_marks" (
	"paper_id" integer PRIMARY KEY NOT NULL,
	"in_family" boolean NOT NULL,
	"reason" text,
	"set_by" text NOT NULL,
	"set_by_name" text,
	"guild_id" text,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- The filter's verdict moves to rules_family/rules_score; grpo_family and family_score become what
-- everything reads: a moderator's mark, else the LLM judge, else the filter.
ALTER TABLE "papers" ADD COLUMN "rules_family" boolean;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "rules_score" real;--> statement-breakpoint
UPDATE "papers" SET "rules_family" = "grpo_family", "rules_score" = "family_score";--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "judge_family" boolean;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "family_mark" boolean;--> statement-breakpoint
ALTER TABLE "papers" DROP COLUMN "grpo_family";--> statement-breakpoint
ALTER TABLE "papers" DROP COLUMN "family_score";--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "grpo_family" boolean GENERATED ALWAYS AS (coalesce(family_mark, judge_family, rules_family)) STORED;--> statement-breakpoint
ALTER TABLE "papers" ADD COLUMN "family_score" real GENERATED ALWAYS AS (case when family_mark is not null then case when family_mark then 1 else 0 end
    when judge_family is not null then case when judge_family then greatest(coalesce(rules_score, 0), 0.75) else least(coalesce(rules_score, 0), 0.25) end
    else rules_score end) STORED;--> statement-breakpoint
ALTER TABLE "family_judgements" ADD CONSTRAINT "family_judgements_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_marks" ADD CONSTRAINT "family_marks_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "family_judgements_paper_version_uq" ON "family_judgements" USING btree ("paper_id","judge_version");--> statement-breakpoint
CREATE INDEX "family_judgements_created_idx" ON "family_judgements" USING btree ("created_at");