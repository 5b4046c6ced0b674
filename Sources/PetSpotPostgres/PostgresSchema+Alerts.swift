import PostgresNIO

extension PostgresSchema {
    /// Version 2: e-mail alerts' tables (docs/alerts-store.md). Every table is LOGGED: an owed mail, a pet
    /// seen or an address that asked never to be written to must survive a crash of the database.
    static let alertTables: [PostgresQuery] = [
        // Both ship in Debian's `postgresql` package (contrib): no PostGIS to install (docs/alerts-store.md "Index").
        "CREATE EXTENSION IF NOT EXISTS cube",
        "CREATE EXTENSION IF NOT EXISTS earthdistance",
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_subscription (
          id text PRIMARY KEY,
          email text NOT NULL,
          address_hash bytea NOT NULL,
          kind text NOT NULL CHECK (kind IN ('search', 'matches')),
          lat double precision,
          lng double precision,
          range_km integer,
          status text,
          species text,
          pet_id text,
          frequency text NOT NULL CHECK (frequency IN ('instant', 'daily')),
          language text NOT NULL,
          state text NOT NULL CHECK (state IN ('pending', 'active', 'stopped')),
          created_at timestamptz NOT NULL,
          last_mail_at timestamptz,
          centre earth,
          CHECK (kind <> 'search' OR (centre IS NOT NULL AND range_km BETWEEN 1 AND 50)))
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_subscription_address ON petspot_alert_subscription (address_hash)",
        // The fan-out's look-up (`searchesContaining`, docs/alerts-store.md "Index"): the active area searches'
        // `centre` (`ll_to_earth(lat, lng)`, written by `subscribe`, so a look-up computes no point per row and no
        // index calls earthdistance's functions, whose unqualified SQL bodies fail under pg_restore's empty
        // search_path), one partial GiST index per band of radii (`PostgresAlertStore.areaBands`): a pet's look-up
        // draws a box as wide as each band's largest radius, not the largest of all, and at 1,000,000 subscriptions
        // reads 5 times fewer rows than one index with a 50 km box (scripts/bench/alerts-fanout.sh).
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_1km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 0 AND range_km <= 1
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_2km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 1 AND range_km <= 2
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_5km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 2 AND range_km <= 5
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_10km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 5 AND range_km <= 10
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_15km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 10 AND range_km <= 15
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_25km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 15 AND range_km <= 25
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_area_50km ON petspot_alert_subscription USING gist (centre)
          WHERE kind = 'search' AND state = 'active' AND range_km > 25 AND range_km <= 50
        """,
        """
        CREATE INDEX IF NOT EXISTS petspot_alert_subscription_follows ON petspot_alert_subscription (created_at)
          WHERE kind = 'matches' AND state = 'active'
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_subscription_pending ON petspot_alert_subscription (created_at) WHERE state = 'pending'",
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_token (
          hash bytea PRIMARY KEY,
          subscription_id text NOT NULL REFERENCES petspot_alert_subscription (id) ON DELETE CASCADE,
          purpose text NOT NULL CHECK (purpose IN ('confirm', 'manage', 'never')),
          created_at timestamptz NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_token_subscription ON petspot_alert_token (subscription_id)",
        // Every pet id the service ever saw: the primary key makes "new" mean new for the whole service.
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_seen (
          pet_id text PRIMARY KEY,
          claimed_at timestamptz NOT NULL,
          done boolean NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_seen_unfinished ON petspot_alert_seen (claimed_at) WHERE NOT done",
        // One row once a list with ids was seen: the first list of a fresh database owes nothing.
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_meta (
          id integer PRIMARY KEY CHECK (id = 1),
          first_list_at timestamptz NOT NULL)
        """,
        // `n` keeps the order pets were owed in, which is the order a mail tells them in.
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_owed (
          subscription_id text NOT NULL REFERENCES petspot_alert_subscription (id) ON DELETE CASCADE,
          pet_id text NOT NULL,
          owed_at timestamptz NOT NULL,
          mail_id text,
          n bigint GENERATED ALWAYS AS IDENTITY,
          PRIMARY KEY (subscription_id, pet_id))
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_owed_open ON petspot_alert_owed (subscription_id, n) WHERE mail_id IS NULL",
        // The outbox. `pet_ids` is NULL until the first claim fixes it, so a resend tells the same pets.
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_mail (
          id text PRIMARY KEY,
          kind text NOT NULL CHECK (kind IN ('confirm', 'alert', 'digest')),
          subscription_id text NOT NULL REFERENCES petspot_alert_subscription (id) ON DELETE CASCADE,
          due_at timestamptz NOT NULL,
          attempts integer NOT NULL DEFAULT 0,
          lease_until timestamptz,
          sent_at timestamptz,
          failed_at timestamptz,
          created_at timestamptz NOT NULL,
          reason text,
          pet_ids text[])
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_mail_due ON petspot_alert_mail (due_at, id) WHERE sent_at IS NULL AND failed_at IS NULL",
        "CREATE INDEX IF NOT EXISTS petspot_alert_mail_subscription ON petspot_alert_mail (subscription_id)",
        // At most one open, unclaimed alert or digest per subscription: `owe` moves it forward instead of adding one.
        """
        CREATE UNIQUE INDEX IF NOT EXISTS petspot_alert_mail_next ON petspot_alert_mail (subscription_id, kind)
          WHERE sent_at IS NULL AND failed_at IS NULL AND pet_ids IS NULL
        """,
        """
        CREATE TABLE IF NOT EXISTS petspot_alert_confirmation (
          address_hash bytea NOT NULL,
          sent_at timestamptz NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS petspot_alert_confirmation_address ON petspot_alert_confirmation (address_hash, sent_at)",
        "CREATE TABLE IF NOT EXISTS petspot_alert_never (address_hash bytea PRIMARY KEY)",
    ]
}
