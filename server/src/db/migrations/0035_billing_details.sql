-- Self-serve billing (issue 32, decision 0064): an organization's billing details, and invoices that carry subtotal,
-- tax, currency, due date and the buyer as it stood at issue. Invoices issued before keep their total as subtotal.
CREATE TABLE "billing_details" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"legal_name" text NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"tax_id" text,
	"email" text,
	"tax_rate" numeric(7, 3),
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "subtotal" numeric(24, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax_rate" numeric(7, 3);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "tax" numeric(24, 6) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer" jsonb;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
UPDATE "invoices" SET "subtotal" = "total", "due_at" = "issued_at" + interval '30 days';
