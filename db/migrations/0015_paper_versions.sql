CREATE TABLE "paper_versions" (
	"paper_id" integer NOT NULL,
	"version" integer NOT NULL,
	"announced_on" date,
	"title" text NOT NULL,
	"abstract" text NOT NULL,
	"settings" jsonb,
	"summary" jsonb,
	"changes" jsonb,
	"meaningful" boolean,
	"note" text,
	"diffed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "paper_versions_paper_id_version_pk" PRIMARY KEY("paper_id","version")
);
--> statement-breakpoint
CREATE TABLE "version_notices" (
	"user_id" text NOT NULL,
	"paper_id" integer NOT NULL,
	"version" integer NOT NULL,
	"reason" text NOT NULL,
	"guild_id" text,
	"via" text DEFAULT 'dm' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"nonce" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"message_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "version_notices_user_id_paper_id_version_pk" PRIMARY KEY("user_id","paper_id","version")
);
--> statement-breakpoint
ALTER TABLE "paper_versions" ADD CONSTRAINT "paper_versions_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "version_notices" ADD CONSTRAINT "version_notices_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "version_notices_status_idx" ON "version_notices" USING btree ("status");