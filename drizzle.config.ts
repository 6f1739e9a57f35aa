import { defineConfig } from 'drizzle-kit';

/** `npx drizzle-kit generate` writes SQL migrations into db/migrations (committed). */
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.ts',
  out: './db/migrations',
  casing: 'snake_case',
  dbCredentials: { url: process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/grpo_digest' },
});
