CREATE INDEX "specs_prefix_idx" ON "specs" USING btree ("company_id",lower("spec_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "poles_pole_prefix_idx" ON "poles" USING btree ("company_id",lower("pole_name") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "poles_line_prefix_idx" ON "poles" USING btree ("company_id",lower("line_name") text_pattern_ops);