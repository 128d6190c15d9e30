-- A notice the process that makes a change hears before the change's answer, without every
-- pooled connection LISTENing (ADR 094). Up to PostgreSQL 18 every NOTIFY wakes every backend
-- that listens on any channel of the database, so ten listening pooled connections per process
-- made every write dearer. pg_notify tells every process on commit, as before; a connection that
-- asked for its own (the setting bookplate.own_notices, which a server's pooled connections set
-- when they open) is also told at once by a NOTICE (SQLSTATE BPOWN: the channel as the message,
-- the payload as the detail), and the server passes it on again when the connection is handed
-- back to its pool, after the commit. psql and other tools do not set it and see nothing.
CREATE FUNCTION "notify_own"("channel" text, "payload" text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify("channel", "payload");
	IF current_setting('bookplate.own_notices', true) = 'on' THEN
		RAISE NOTICE USING MESSAGE = "channel", DETAIL = "payload", ERRCODE = 'BPOWN';
	END IF;
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "signed_in_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM notify_own('signed_in_changed', '');
	ELSIF TG_TABLE_NAME = 'session' THEN
		PERFORM notify_own('signed_in_changed', OLD."user_id");
		IF TG_OP = 'UPDATE' AND NEW."user_id" IS DISTINCT FROM OLD."user_id" THEN
			PERFORM notify_own('signed_in_changed', NEW."user_id");
		END IF;
	ELSE
		PERFORM notify_own('signed_in_changed', OLD."id");
	END IF;
	RETURN NULL;
END;
$$;
