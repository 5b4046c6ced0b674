import CompiledTemplates
import Foundation
import Mustache
import TemplateSamples
import WebApp

// Release-build benchmark of the template engine (docs/templates.md): CPU per render of each page
// template by CompiledTemplates and by swift-mustache, on the same English templates and the same
// view models (`TemplateSamples`), after checking both give the same bytes. Prints figures; asserts
// nothing. Run from the repository root (it reads Templates/): scripts/bench/templates.sh

/// CPU time of this thread in microseconds (other processes on a busy machine do not count).
func threadCPUMicroseconds() -> Double {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return Double(spec.tv_sec) * 1_000_000 + Double(spec.tv_nsec) / 1000
}

/// Median CPU microseconds of one call of `work`, over batches of about 40 ms.
func microsecondsPerCall(_ work: () -> Int) -> Double {
    var sink = work()
    var perBatch = 1
    while true {
        let start = threadCPUMicroseconds()
        for _ in 0..<perBatch { sink &+= work() }
        if threadCPUMicroseconds() - start > 40_000 { break }
        perBatch *= 2
    }
    var times: [Double] = []
    for _ in 0..<9 {
        let start = threadCPUMicroseconds()
        for _ in 0..<perBatch { sink &+= work() }
        times.append((threadCPUMicroseconds() - start) / Double(perBatch))
    }
    if sink == -1 { print("") }  // keeps the renders from being optimized away
    return times.sorted()[times.count / 2]
}

/// The `key = value` texts of a message catalog (plural forms are not used by templates).
func catalogTexts(_ path: String) -> [String: String] {
    let source = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    var texts: [String: String] = [:]
    for line in source.split(separator: "\n") where !line.hasPrefix("#") {
        guard let equals = line.range(of: " = ") else { continue }
        texts[String(line[..<equals.lowerBound])] = String(line[equals.upperBound...])
    }
    return texts
}

/// Writes every template of `source` into `target` with its `{{t:key}}` texts filled in.
func writeLocalizedCopy(of source: String, to target: String, text: (String) -> String?) throws {
    let enumerator = FileManager().enumerator(atPath: source)
    while let path = enumerator?.nextObject() as? String {
        guard path.hasSuffix(".mustache") else { continue }
        let file = URL(fileURLWithPath: target + "/" + path)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let template = try String(contentsOfFile: source + "/" + path, encoding: .utf8)
        try Data(TemplateLocalization.localize(template, file: path, text: text).utf8).write(to: file)
    }
}

let source = CommandLine.arguments.dropFirst().first ?? "Templates"
let texts = catalogTexts(source + "/locales/en.messages")
let text: (String) -> String? = { texts[$0] }
// swift-mustache reads plain Mustache: a copy of the templates with their {{t:key}} texts filled in.
let localized = FileManager.default.temporaryDirectory.appendingPathComponent("template-benchmark-\(getpid())").path
defer { try? FileManager.default.removeItem(atPath: localized) }
try writeLocalizedCopy(of: source, to: localized, text: text)
let compiled = try CompiledTemplates.load(directory: source, text: text)
let library = try await MustacheLibrary(directory: localized)

print("template render, CPU per page (median of 9 batches), CompiledTemplates vs swift-mustache 2.1.1:")
var samples = TemplateSamples.all()
samples.append(contentsOf: TemplateSamples.all(listCards: 20, mapPlaces: 200).filter { $0.template == "map" })
for sample in samples {
    let ours = compiled.render(sample.model, template: sample.template) ?? []
    let reference = Array((library.render(sample.model, withTemplate: sample.template) ?? "").utf8)
    let ourTime = microsecondsPerCall { compiled.render(sample.model, template: sample.template)?.count ?? 0 }
    let referenceTime = microsecondsPerCall { library.render(sample.model, withTemplate: sample.template)?.utf8.count ?? 0 }
    let label = sample.label.padding(toLength: 18, withPad: " ", startingAt: 0)
    print(
        String(
            format: "  %@ %7d bytes  compiled %8.1f µs  swift-mustache %8.1f µs  (%4.1fx)  same bytes: %@",
            label as NSString,
            ours.count,
            ourTime,
            referenceTime,
            referenceTime / ourTime,
            (ours == reference ? "yes" : "NO") as NSString
        )
    )
}
