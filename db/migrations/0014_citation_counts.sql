CREATE TABLE "citation_counts" (
	"paper_id" integer PRIMARY KEY NOT NULL,
	"s2_paper_id" text,
	"citation_count" integer NOT NULL,
	"influential_count" integer NOT NULL,
	"fetched_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "citation_counts" ADD CONSTRAINT "citation_counts_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;