import Alerts
import Foundation
import Logging
import PetSpotPostgres
import PostgresNIO
import TestSupport
import Testing

/// What only the shared alert store does: failing closed before its schema is in place, and errors that
/// never carry an address (docs/alerts-store.md).
@Suite("PostgreSQL alert store", .serialized)
struct PostgresAlertStoreTests {
    @Test
    func an_alert_store_before_its_schema_is_in_place_fails_closed() async throws {
        // A pool that never runs: the readiness check must refuse before anything is asked of it.
        let client = PostgresClient(configuration: .init(unixSocketPath: "/nonexistent/.s.PGSQL.5432", username: "u", password: nil, database: "d"))
        let store = PostgresAlertStore(client: client, ready: { false }, logger: Logger(label: "alert-store-test"))

        await #expect(throws: AlertStoreUnavailable.self) { try await store.recordSeen(petIDs: ["a"], now: winterNoon) }
        await #expect(throws: AlertStoreUnavailable.self) { try await store.claimDue(now: winterNoon, limit: 1) }
        await #expect(throws: AlertStoreUnavailable.self) { try await store.subscribe(searchRequest("a@example.org"), now: winterNoon) }
    }

    @Test
    func a_database_error_names_the_operation_and_never_the_address() async throws {
        let cluster = try ThrowawayPostgres()
        defer { cluster.remove() }
        try await withPostgresAlertStore(cluster.url) { store in
            // The server's message of a CHECK violation quotes the failing row, address included.
            _ = try cluster.sql("ALTER TABLE petspot_alert_subscription ADD CONSTRAINT refuse CHECK (email <> 'secret@example.org')")

            let error = await #expect(throws: AlertStoreUnavailable.self) {
                try await store.subscribe(searchRequest("secret@example.org"), now: winterNoon)
            }

            #expect(error?.operation == "subscribe")
            #expect(error?.description.contains("23514") == true)
            #expect(error?.description.contains("secret") == false)
        }
    }
}
