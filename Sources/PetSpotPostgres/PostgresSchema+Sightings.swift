import PostgresNIO

extension PostgresSchema {
    /// Version 3: sightings, the owner page's tokens, reunions and the relay's kinds of the alert tables (docs/sightings.md). LOGGED: a sighting is
    /// what a stranger took the trouble to tell an owner, and a reunion is state the backend cannot keep.
    static let sightingTables: [PostgresQuery] = [
        """
        CREATE TABLE IF NOT EXISTS petspot_sighting (
          id text PRIMARY KEY,
          pet_id text NOT NULL,
          seen_at timestamptz NOT NULL,
          lat double precision NOT NULL,
          lng double precision NOT NULL,
          place_name text,
          note text NOT NULL,
          contact text,
          photo_width integer,
          photo_height integer,
          photo_bytes integer,
          created_at timestamptz NOT NULL)
        """,
        // The owner's page lists a pet's sightings newest first; the sweep reads by age.
        "CREATE INDEX IF NOT EXISTS petspot_sighting_pet ON petspot_sighting (pet_id, seen_at DESC, created_at DESC, id DESC)",
        "CREATE INDEX IF NOT EXISTS petspot_sighting_created ON petspot_sighting (created_at)",
        // Apart from the rows, so listing a pet's sightings reads no photo; a sighting's removal takes its photo.
        """
        CREATE TABLE IF NOT EXISTS petspot_sighting_photo (
          sighting_id text PRIMARY KEY REFERENCES petspot_sighting (id) ON DELETE CASCADE,
          jpeg bytea NOT NULL)
        """,
        // JPEG does not compress: no pglz on the way in.
        "ALTER TABLE petspot_sighting_photo ALTER COLUMN jpeg SET STORAGE EXTERNAL",
        """
        CREATE TABLE IF NOT EXISTS petspot_owner_access (
          hash bytea PRIMARY KEY,
          pet_id text NOT NULL,
          until timestamptz NOT NULL)
        """,
        "CREATE INDEX IF NOT EXISTS petspot_owner_access_until ON petspot_owner_access (until)",
        """
        CREATE TABLE IF NOT EXISTS petspot_reunion (
          pet_id text PRIMARY KEY,
          at timestamptz NOT NULL)
        """,
        // Sightings are relayed through the alerts' outbox (docs/sightings.md "The relay"): a subscription kind
        // and a mail kind more. The constraints are the ones step 2 named by PostgreSQL's rule (table_column_check).
        """
        ALTER TABLE petspot_alert_subscription DROP CONSTRAINT IF EXISTS petspot_alert_subscription_kind_check,
          ADD CONSTRAINT petspot_alert_subscription_kind_check CHECK (kind IN ('search', 'matches', 'sightings'))
        """,
        """
        ALTER TABLE petspot_alert_mail DROP CONSTRAINT IF EXISTS petspot_alert_mail_kind_check,
          ADD CONSTRAINT petspot_alert_mail_kind_check CHECK (kind IN ('confirm', 'alert', 'digest', 'sighting'))
        """,
    ]
}
