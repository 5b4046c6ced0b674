import MicroHTTP
import PetAPIClient
import PetDomain

/// What a route needs before it can answer: the data when it is in memory, and how to get it when
/// it is not. The pipeline asks `inMemory` on the server thread; only when that gives nil does the
/// request wait, once, for `fetch` (docs/architecture.md "The life of a request").
struct Need<Data: Sendable>: Sendable {
    /// The data when it is in memory: called on a server thread, so it must not block.
    let inMemory: @Sendable () -> Data?
    /// The data after waiting (the upstream, a conversion); called only when `inMemory` gave nil.
    let fetch: @Sendable () async -> Data
}

/// How a route answers one request, decided once per request by `Router.plan` (the route, the
/// query and the language parsed once): at once, or by one render function over the data it
/// needs. The pipeline runs it: synchronously on the server thread when the data is in memory,
/// otherwise with one suspend and resume of the connection. Handlers never know which thread they
/// run on: they only describe the need and render the data.
struct RoutePlan: Sendable {
    /// The answer when everything it needs is in memory; nil when the request must wait. An error
    /// (`HTTPError`) is written by the pipeline in the route's format (`ErrorRenderer`).
    let now: @Sendable () throws(HTTPError) -> Reply?
    /// The answer after waiting; called only when `now` gave nil.
    let later: @Sendable () async throws(HTTPError) -> Reply

    /// An answer known already (a static file, a redirect).
    static func answer(_ response: Response) -> RoutePlan {
        answer(Reply(response))
    }

    /// A reply known already.
    static func answer(_ reply: Reply) -> RoutePlan {
        RoutePlan(now: { reply }, later: { reply })
    }

    /// The answer `make` gives now, or its error.
    static func making(_ make: () throws(HTTPError) -> Response) -> RoutePlan {
        do throws(HTTPError) {
            return .answer(try make())
        } catch {
            return .failed(error)
        }
    }

    /// An error known already (a 400 for the query, a 404).
    static func failed(_ error: HTTPError) -> RoutePlan {
        RoutePlan(now: { () throws(HTTPError) -> Reply? in throw error }, later: { () throws(HTTPError) -> Reply in throw error })
    }

    /// The answer `render` makes from what `need` gives.
    static func needs<Data>(_ need: Need<Data>, render: @escaping @Sendable (Data) throws(HTTPError) -> Reply) -> RoutePlan {
        RoutePlan(
            now: { () throws(HTTPError) -> Reply? in
                guard let data = need.inMemory() else { return nil }
                return try render(data)
            },
            later: { () async throws(HTTPError) -> Reply in try render(await need.fetch()) }
        )
    }

    /// An answer that is all waiting: an upstream write with the request's body (the report form,
    /// the API's writes), or a readiness probe. The work renders its own answer.
    static func work(_ body: @escaping @Sendable () async throws(HTTPError) -> Response) -> RoutePlan {
        RoutePlan(now: { nil }, later: { () async throws(HTTPError) -> Reply in Reply(try await body()) })
    }

    /// This plan, its answers under `policy`, which their makers wrote on them (a route whose every
    /// answer is for its client only, or for this request only): the compression step reads it
    /// (`CachePolicy.mayCompress`, BREACH). Errors are written by the pipeline, `noStore`.
    func under(_ policy: CachePolicy) -> RoutePlan {
        let (now, later) = (self.now, self.later)
        return RoutePlan(
            now: { () throws(HTTPError) -> Reply? in try now().map { $0.under(policy) } },
            later: { () async throws(HTTPError) -> Reply in try await later().under(policy) }
        )
    }
}

/// Where a pet's announcement comes from for its details page, poster and API answer.
enum PetSource: Sendable {
    /// In the fresh snapshot's list (pages made from it are kept like other pages).
    case listed(Announcement, Fetched<Snapshot>)
    /// From the details endpoint: not in the list, made for this request only.
    case fetched(Fetched<Announcement>)
    /// The details endpoint failed (`.notFound` for an unknown id).
    case failed(UpstreamFailure)
}

extension Need where Data == Result<Fetched<Snapshot>, UpstreamFailure> {
    /// The validated list: in memory while fresh, else the shared fetch (one upstream call for all
    /// the requests that wait for it: `AnnouncementGateway`).
    static func snapshot(_ gateway: AnnouncementGateway, requestID: String) -> Self {
        Need(
            inMemory: { gateway.heldSnapshot(requestID: requestID).map { .success($0) } },
            fetch: {
                do throws(UpstreamFailure) {
                    return .success(try await gateway.snapshot(requestID: requestID))
                } catch {
                    return .failure(error)
                }
            }
        )
    }
}

extension Need where Data == PetSource {
    /// One announcement: from the fresh snapshot when it lists the id, else from the details
    /// endpoint (an announcement the list does not hold, or no fresh list in memory).
    static func announcement(id: String, _ gateway: AnnouncementGateway, requestID: String) -> Self {
        Need(
            inMemory: {
                guard let snapshot = gateway.freshSnapshot(), let pet = snapshot.value.announcement(id: id) else { return nil }
                return .listed(pet, snapshot)
            },
            fetch: {
                do throws(UpstreamFailure) {
                    return .fetched(try await gateway.announcement(id: id, requestID: requestID))
                } catch {
                    return .failed(error)
                }
            }
        )
    }
}
