CREATE TABLE "interaction_claims" (
	"id" text PRIMARY KEY NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"by" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "interaction_claims_claimed_at_idx" ON "interaction_claims" USING btree ("claimed_at");