-- Custom SQL migration file, put your code below! --
-- The query console's boundary (decision 0048). Console statements run as tessera_query_console: a NOLOGIN role
-- that may read this schema's tables (not the server's secrets) and nothing else, through run(), a SECURITY
-- DEFINER function it owns. Inside such a function PostgreSQL refuses to change role or session authorization,
-- so a statement cannot set_config('role', ...) its way back to the connecting user (a superuser in CI).
-- run() stops at max_rows rows or max_bytes of row text, ending with a row whose stop says which.
-- Without the right to create or grant the role this step is skipped with a warning: the console then refuses
-- to run on this database, naming the role, until an administrator runs this block (decision 0048).
DO $migration$
BEGIN
  BEGIN
    IF NOT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = 'tessera_query_console') THEN
      BEGIN
        CREATE ROLE tessera_query_console NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL; -- another database of this server made it at the same moment
      END;
    END IF;
    IF NOT pg_catalog.pg_has_role(CURRENT_USER, 'tessera_query_console', 'MEMBER') THEN
      GRANT tessera_query_console TO CURRENT_USER; -- to switch to it and give it the function
    END IF;
    CREATE SCHEMA IF NOT EXISTS tessera_query_console AUTHORIZATION tessera_query_console;
    CREATE OR REPLACE FUNCTION tessera_query_console.run(statement text, max_rows integer, max_bytes bigint)
      RETURNS TABLE (line text, stop text)
      LANGUAGE plpgsql
      SECURITY DEFINER
    AS $run$
    DECLARE
      r record;
      used bigint := 0;
      n integer := 0;
    BEGIN
      -- Operators and the cast are schema-qualified: the statement may change search_path while it runs.
      FOR r IN EXECUTE statement LOOP
        IF n OPERATOR(pg_catalog.>=) max_rows THEN
          line := NULL; stop := 'rows'; RETURN NEXT; RETURN;
        END IF;
        line := r::pg_catalog.text;
        used := used OPERATOR(pg_catalog.+) pg_catalog.octet_length(line);
        IF used OPERATOR(pg_catalog.>) max_bytes THEN
          line := NULL; stop := 'bytes'; RETURN NEXT; RETURN;
        END IF;
        stop := NULL;
        RETURN NEXT;
        n := n OPERATOR(pg_catalog.+) 1;
      END LOOP;
    END
    $run$;
    ALTER FUNCTION tessera_query_console.run(text, integer, bigint) OWNER TO tessera_query_console;
    REVOKE ALL ON FUNCTION tessera_query_console.run(text, integer, bigint) FROM PUBLIC;
    GRANT USAGE ON SCHEMA public TO tessera_query_console;
    GRANT SELECT ON ALL TABLES IN SCHEMA public TO tessera_query_console;
    GRANT SELECT ON ALL SEQUENCES IN SCHEMA public TO tessera_query_console;
    IF pg_catalog.to_regclass('public.server_secrets') IS NOT NULL THEN
      REVOKE ALL ON public.server_secrets FROM tessera_query_console; -- key material, not data
    END IF;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON TABLES TO tessera_query_console;
    ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT ON SEQUENCES TO tessera_query_console;
  EXCEPTION WHEN insufficient_privilege OR invalid_grant_operation THEN
    RAISE WARNING 'The query console''s role tessera_query_console was not set up (%): the console refuses to run on this database until an administrator runs the SQL of decision 0048.', SQLERRM;
  END;
END
$migration$;
