CREATE TABLE "queue_virtual_times" (
	"queue_schema" text NOT NULL,
	"queue" text NOT NULL,
	"band" text NOT NULL,
	"virtual_time" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "queue_virtual_times_queue_schema_queue_band_pk" PRIMARY KEY("queue_schema","queue","band")
);
