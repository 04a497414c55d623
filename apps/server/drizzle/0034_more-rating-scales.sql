ALTER TABLE "measure_schedules" DROP CONSTRAINT "measure_schedules_instrument_check";--> statement-breakpoint
ALTER TABLE "measures" DROP CONSTRAINT "measures_instrument_check";--> statement-breakpoint
ALTER TABLE "measure_schedules" ADD CONSTRAINT "measure_schedules_instrument_check" CHECK ("measure_schedules"."instrument" in ('phq9', 'gad7', 'pcl5', 'auditc'));--> statement-breakpoint
ALTER TABLE "measures" ADD CONSTRAINT "measures_instrument_check" CHECK ("measures"."instrument" in ('phq9', 'gad7', 'pcl5', 'auditc'));