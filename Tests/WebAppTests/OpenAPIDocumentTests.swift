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

    /// Every route of the table below `/api/` (`RouteTable`), a sample of its pattern probed, is
    /// documented with its methods; and every documented operation is one of them.
    @Test func every_api_route_is_documented() throws {
        let operations = try documented()
        let probes = RouteTable.entries.map { Route($0.kind, Array(repeating: Self.sampleID, count: $0.pattern.parameterCount)).path }
            .filter { $0.hasPrefix("/api/") }
        #expect(probes.count >= 6)
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
