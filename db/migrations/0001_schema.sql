CREATE TABLE "app_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"channel_id" text PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"post_time" text DEFAULT '09:00' NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"cadence" text DEFAULT 'daily' NOT NULL,
	"weekday" integer,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"max_papers" integer DEFAULT 10 NOT NULL,
	"min_score" real DEFAULT 0 NOT NULL,
	"quiet_day" text DEFAULT 'nothing' NOT NULL,
	"thread_per_paper" boolean DEFAULT false NOT NULL,
	"ping_role_id" text,
	"last_digest_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "citations" (
	"citing_paper_id" integer NOT NULL,
	"cited_paper_id" integer NOT NULL,
	"source" text NOT NULL,
	"context" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "citations_citing_paper_id_cited_paper_id_pk" PRIMARY KEY("citing_paper_id","cited_paper_id")
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel_id" text NOT NULL,
	"digest_key" text NOT NULL,
	"part" integer NOT NULL,
	"nonce" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"payload" jsonb NOT NULL,
	"paper_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"message_id" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "feed_state" (
	"feed" text PRIMARY KEY NOT NULL,
	"etag" text,
	"last_modified" text,
	"cursor" text,
	"initialized_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error_at" timestamp with time zone,
	"last_error" text,
	"last_item_count" integer,
	"last_family_count" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "guilds" (
	"guild_id" text PRIMARY KEY NOT NULL,
	"moderator_role_id" text,
	"notify_channel_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"stats" jsonb,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"source" text NOT NULL,
	"lang" text NOT NULL,
	"heading" text DEFAULT '' NOT NULL,
	"motivation" text DEFAULT '' NOT NULL,
	"method" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"results" text DEFAULT '' NOT NULL,
	"takeaways" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"restored_chars" integer DEFAULT 0 NOT NULL,
	"unresolved_chars" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications_sent" (
	"user_id" text NOT NULL,
	"paper_id" integer NOT NULL,
	"via" text NOT NULL,
	"reason" text,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_sent_user_id_paper_id_pk" PRIMARY KEY("user_id","paper_id")
);
--> statement-breakpoint
CREATE TABLE "paper_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"source" text NOT NULL,
	"external_id" text NOT NULL,
	"version" integer,
	"announce_type" text,
	"raw" jsonb,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "papers" (
	"id" serial PRIMARY KEY NOT NULL,
	"arxiv_id" text,
	"arxiv_version" integer,
	"title_key" text NOT NULL,
	"title" text NOT NULL,
	"title_zh" text,
	"abstract" text DEFAULT '' NOT NULL,
	"abstract_zh" text,
	"authors" text[] DEFAULT '{}'::text[] NOT NULL,
	"author_count" integer,
	"organization" text,
	"published_on" date,
	"categories" text[] DEFAULT '{}'::text[] NOT NULL,
	"github_url" text,
	"github_stars" integer,
	"project_page" text,
	"hf_upvotes" integer,
	"ai_summary" text,
	"ai_keywords" text[] DEFAULT '{}'::text[] NOT NULL,
	"grpo_family" boolean,
	"family_score" real,
	"families" text[] DEFAULT '{}'::text[] NOT NULL,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"classify_reasons" jsonb,
	"classified_at" timestamp with time zone,
	"search_notes" text DEFAULT '' NOT NULL,
	"search_zh" text DEFAULT '' NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', coalesce("papers"."title", '')), 'A')
      || setweight(to_tsvector('english', coalesce("papers"."abstract", '')), 'B')
      || setweight(to_tsvector('english', coalesce("papers"."search_notes", '')), 'C')
      || setweight(to_tsvector('simple', coalesce("papers"."search_zh", '')), 'B')) STORED,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "queue_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"guild_id" text NOT NULL,
	"paper_id" integer NOT NULL,
	"nominated_by" text NOT NULL,
	"nominated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"scheduled_for" date,
	"announcement_message_id" text,
	"thread_id" text,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"guild_id" text,
	"mode" text DEFAULT 'dm' NOT NULL,
	"channel_id" text,
	"daily_cap" integer DEFAULT 10 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "summaries" (
	"id" serial PRIMARY KEY NOT NULL,
	"paper_id" integer NOT NULL,
	"lang" text NOT NULL,
	"prompt_version" text NOT NULL,
	"status" text NOT NULL,
	"model" text,
	"content" jsonb,
	"error" text,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"cache_read_tokens" integer DEFAULT 0 NOT NULL,
	"cache_write_tokens" integer DEFAULT 0 NOT NULL,
	"cost_usd" numeric(12, 6) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_subscriptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"guild_id" text,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"exclude" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "votes" (
	"queue_item_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "votes_queue_item_id_user_id_pk" PRIMARY KEY("queue_item_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_citing_paper_id_papers_id_fk" FOREIGN KEY ("citing_paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "citations" ADD CONSTRAINT "citations_cited_paper_id_papers_id_fk" FOREIGN KEY ("cited_paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications_sent" ADD CONSTRAINT "notifications_sent_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "paper_sources" ADD CONSTRAINT "paper_sources_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "queue_items" ADD CONSTRAINT "queue_items_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "summaries" ADD CONSTRAINT "summaries_paper_id_papers_id_fk" FOREIGN KEY ("paper_id") REFERENCES "public"."papers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "votes" ADD CONSTRAINT "votes_queue_item_id_queue_items_id_fk" FOREIGN KEY ("queue_item_id") REFERENCES "public"."queue_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "citations_cited_idx" ON "citations" USING btree ("cited_paper_id");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_channel_digest_part_uq" ON "deliveries" USING btree ("channel_id","digest_key","part");--> statement-breakpoint
CREATE UNIQUE INDEX "deliveries_nonce_uq" ON "deliveries" USING btree ("nonce");--> statement-breakpoint
CREATE INDEX "deliveries_status_idx" ON "deliveries" USING btree ("status");--> statement-breakpoint
CREATE INDEX "job_runs_job_started_idx" ON "job_runs" USING btree ("job","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notes_paper_source_lang_uq" ON "notes" USING btree ("paper_id","source","lang");--> statement-breakpoint
CREATE UNIQUE INDEX "paper_sources_source_external_uq" ON "paper_sources" USING btree ("source","external_id");--> statement-breakpoint
CREATE INDEX "paper_sources_paper_idx" ON "paper_sources" USING btree ("paper_id");--> statement-breakpoint
CREATE UNIQUE INDEX "papers_arxiv_id_uq" ON "papers" USING btree ("arxiv_id");--> statement-breakpoint
CREATE INDEX "papers_title_key_idx" ON "papers" USING btree ("title_key");--> statement-breakpoint
CREATE INDEX "papers_search_idx" ON "papers" USING gin ("search");--> statement-breakpoint
CREATE INDEX "papers_title_trgm_idx" ON "papers" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "papers_published_idx" ON "papers" USING btree ("published_on");--> statement-breakpoint
CREATE INDEX "papers_first_seen_idx" ON "papers" USING btree ("first_seen_at");--> statement-breakpoint
CREATE UNIQUE INDEX "queue_items_guild_paper_uq" ON "queue_items" USING btree ("guild_id","paper_id");--> statement-breakpoint
CREATE INDEX "queue_items_guild_status_idx" ON "queue_items" USING btree ("guild_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "summaries_paper_lang_prompt_uq" ON "summaries" USING btree ("paper_id","lang","prompt_version");--> statement-breakpoint
CREATE INDEX "summaries_created_idx" ON "summaries" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_subscriptions_uq" ON "user_subscriptions" USING btree ("user_id","kind","value");--> statement-breakpoint
CREATE INDEX "user_subscriptions_kind_idx" ON "user_subscriptions" USING btree ("kind","value");