ALTER TABLE "api_keys" ADD COLUMN "mode" text DEFAULT 'live' NOT NULL;--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_mode_check" CHECK ("mode" in ('live', 'test'));
--> statement-breakpoint
-- The sandbox (issue 31): test keys read a fixed public synthetic graph kept in a schema of its own, with the same
-- tables, indexes and constraints as the real one (LIKE ... INCLUDING ALL). Test-mode lookups run with
-- `search_path = sandbox_graph, public` (db/client.ts), so the very statements of the live path read these tables.
-- A migration that changes a graph table changes its sandbox copy too (test: sandbox-graph.test.ts).
CREATE SCHEMA "sandbox_graph";--> statement-breakpoint
CREATE TABLE "sandbox_graph"."people" (LIKE "public"."people" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_addresses" (LIKE "public"."person_addresses" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_behaviors" (LIKE "public"."person_behaviors" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_companies" (LIKE "public"."person_companies" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_data" (LIKE "public"."person_data" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_devices" (LIKE "public"."person_devices" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_emails" (LIKE "public"."person_emails" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_finances" (LIKE "public"."person_finances" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_ips" (LIKE "public"."person_ips" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_phones" (LIKE "public"."person_phones" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_properties" (LIKE "public"."person_properties" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_vehicles" (LIKE "public"."person_vehicles" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."person_records" (LIKE "public"."person_records" INCLUDING ALL);--> statement-breakpoint
CREATE TABLE "sandbox_graph"."suppressions" (LIKE "public"."suppressions" INCLUDING ALL);
