import Foundation
import Testing

@testable import WebApp

/// The OpenAPI document is the truth about the API (docs/openapi.md): every `/api/` route of the route
/// table (`Route`, `Router`) is documented with the methods it answers, and every documented operation
/// is routed. The document read is the one the server serves (`Public/api/openapi.json`).
@Suite struct OpenAPIDocumentTests {
    /// The documented operations: path template → methods (upper-case).
    private func documented() throws -> [String: Set<String>] {
        let file = repositoryRoot.appendingPathComponent("Public/" + AnnouncementsAPI.documentAsset)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        return paths.mapValues { Set($0.keys.filter(methods.contains).map { $0.uppercased() }) }
    }

    /// The methods a route answers as an OpenAPI document lists them: HEAD goes with GET.
    private func methods(of route: Route) -> Set<String> {
        Set(route.allowedMethods.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "HEAD" })
    }

    /// A concrete path of a template: `{id}` filled with an id no route word can be.
    private static let sampleID = "id-7f3a9c1e"
    private func concrete(_ template: String) -> String {
        template.replacingOccurrences(of: "{id}", with: Self.sampleID)
    }
    private func template(_ path: String) -> String {
        path.replacingOccurrences(of: Self.sampleID, with: "{id}")
    }

    @Test func every_documented_operation_is_routed_with_its_methods() throws {
        let operations = try documented()
        #expect(!operations.isEmpty)
        for (template, documentedMethods) in operations {
            let route = try #require(Route(path: concrete(template)), "\(template) is documented but not routed")
            #expect(route.path.hasPrefix("/api/"), "\(template) is documented but routes to \(route)")
            #expect(self.template(route.path) == template, "\(template) routes to \(route.path)")
            #expect(methods(of: route) == documentedMethods, "\(template): routed \(methods(of: route)), documented \(documentedMethods)")
        }
    }

    /// Probes every `/api/v1` path the route table could parse: each word `Route.swift` names (its
    /// string literals), in each place an API path has one. A route added below `/api/` without its
    /// operation fails here; so does an operation the probes cannot reach.
    @Test func every_api_route_is_documented() throws {
        let operations = try documented()
        let source = try String(
            contentsOf: repositoryRoot.appendingPathComponent("Sources/WebApp/Server/Route.swift"),
            encoding: .utf8
        )
        let literals = source.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
        let words = Set(literals.map { String($0.element) }.filter { !$0.isEmpty && !$0.contains("/") && !$0.contains(" ") && !$0.contains("\\") })
        #expect(words.isSuperset(of: ["announcements", "photos", "openapi.json"]))
        var probes = ["/api/v1/announcements/\(Self.sampleID)"]
        for word in words {
            // Not `/api/v1/announcements/{word}`: there a word is an announcement's id.
            probes += ["/api/v1/\(word)", "/api/v1/announcements/\(Self.sampleID)/\(word)", "/api/v1/\(word)/\(Self.sampleID)"]
        }
        var routed: Set<String> = []
        for probe in probes {
            guard let route = Route(path: probe), route.path.hasPrefix("/api/") else { continue }
            let template = self.template(route.path)
            routed.insert(template)
            let documentedMethods = operations[template]
            #expect(documentedMethods != nil, "\(template) (\(route)) is routed but not in docs/openapi.yaml")
            if let documentedMethods {
                #expect(methods(of: route) == documentedMethods, "\(template): routed \(methods(of: route)), documented \(documentedMethods)")
            }
        }
        #expect(routed == Set(operations.keys), "documented but not reached by the probes: \(Set(operations.keys).subtracting(routed))")
    }
}
