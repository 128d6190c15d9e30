-- Who a session cookie signs in is kept by each server process between requests (ADR 093).
-- Every change to a session or to its user, by any code on any path (Better Auth's endpoints,
-- the back office, an account's deletion, psql), tells every process which user to forget; a
-- TRUNCATE (no row trigger fires) tells them to forget everyone (an empty payload).
CREATE FUNCTION "signed_in_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'TRUNCATE' THEN
		PERFORM pg_notify('signed_in_changed', '');
	ELSIF TG_TABLE_NAME = 'session' THEN
		PERFORM pg_notify('signed_in_changed', OLD."user_id");
		IF TG_OP = 'UPDATE' AND NEW."user_id" IS DISTINCT FROM OLD."user_id" THEN
			PERFORM pg_notify('signed_in_changed', NEW."user_id");
		END IF;
	ELSE
		PERFORM pg_notify('signed_in_changed', OLD."id");
	END IF;
	RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "session_signed_in_changed" AFTER UPDATE OR DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION "signed_in_changed"();
--> statement-breakpoint
CREATE TRIGGER "user_signed_in_changed" AFTER UPDATE OR DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION "signed_in_changed"();
--> statement-breakpoint
CREATE TRIGGER "session_signed_in_truncated" AFTER TRUNCATE ON "session" FOR EACH STATEMENT EXECUTE FUNCTION "signed_in_changed"();
--> statement-breakpoint
CREATE TRIGGER "user_signed_in_truncated" AFTER TRUNCATE ON "user" FOR EACH STATEMENT EXECUTE FUNCTION "signed_in_changed"();
