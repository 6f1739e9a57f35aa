CREATE TABLE "paper_texts" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"url" text NOT NULL,
	"sections" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"chars" integer DEFAULT 0 NOT NULL,
	"truncated" boolean DEFAULT false NOT NULL,
	"rules_settings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"retry_at" timestamp with time zone,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "summaries" ADD COLUMN "basis" text DEFAULT 'abstract' NOT NULL;--> statement-breakpoint
ALTER TABLE "paper_texts" ADD CONSTRAINT "paper_texts_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "paper_texts_paper_version_uq" ON "paper_texts" USING btree ("paper_id","version");