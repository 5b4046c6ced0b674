import Mustache

// The instruction walk: text, values, sections, partials and blocks, with swift-mustache's
// per-render-call indentation rule. Value lookups and output are in CompiledTemplates+Values.swift.

/// Mutable state of one render call.
struct RenderRun {
    /// Where bytes go.
    var output: [UInt8]
    /// Context stack, innermost last; lookups walk it backwards.
    var frames: [Frame] = []
    /// Types seen in this render, parallel to `factories` (a handful, so a linear search is fastest).
    var factoryTypes: [ObjectIdentifier] = []
    /// How to push each of `factoryTypes`.
    var factories: [FrameFactory] = []
}

extension CompiledTemplates {
    /// Renders the template at `index` with `context` as the only context value.
    func renderTemplate(_ index: Int, context: Any, into output: inout [UInt8]) {
        var run = RenderRun(output: [])
        swap(&run.output, &output)
        run.frames.reserveCapacity(8)
        run.push(context)
        let template = program.templates[index]
        renderRange(template.start, template.end, &run, indentation: [], overrides: [])
        swap(&run.output, &output)
    }

    /// Renders instructions `start..<end` the way one swift-mustache `MustacheTemplate.render(context:)` call does.
    ///
    /// With indentation, swift-mustache prefixes a token's (non-empty) output when the text this
    /// call produced so far ends with "\n"; the scope is this call only, so the first token of a
    /// section or list item is never prefixed by the inner call.
    private func renderRange(_ start: Int, _ end: Int, _ run: inout RenderRun, indentation: [UInt8], overrides: [BlockOverride]) {
        var pc = start
        if indentation.isEmpty {
            while pc < end {
                pc = renderInstruction(pc, &run, indentation: indentation, overrides: overrides)
            }
            return
        }
        let scopeStart = run.output.count
        while pc < end {
            if case .textRun = program.code[pc] {
                pc += 1  // run the lines one by one: each may need the indentation
                continue
            }
            let count = run.output.count
            // `string.last == "\n"` compares Characters, and "\r\n" is one Character.
            let atLineStart =
                count > scopeStart && run.output[count - 1] == 0x0A
                && !(count - 2 >= scopeStart && run.output[count - 2] == 0x0D)
            guard atLineStart else {
                pc = renderInstruction(pc, &run, indentation: indentation, overrides: overrides)
                continue
            }
            run.output.append(contentsOf: indentation)
            let mark = run.output.count
            pc = renderInstruction(pc, &run, indentation: indentation, overrides: overrides)
            if run.output.count == mark {
                run.output.removeLast(indentation.count)
            }
        }
    }

    /// Renders the instruction at `pc` and returns the next one to run.
    private func renderInstruction(_ pc: Int, _ run: inout RenderRun, indentation: [UInt8], overrides: [BlockOverride]) -> Int {
        switch program.code[pc] {
        case .text(let start, let end):
            run.output.append(contentsOf: program.bytes[start..<end])
            return pc + 1

        case .textRun(let start, let end, let next):
            run.output.append(contentsOf: program.bytes[start..<end])
            return next

        case .value(let name, let escaped):
            if let value = lookUp(name, in: run.frames) {
                writeValue(value, escaped: escaped, into: &run.output)
            }
            return pc + 1

        case .section(let name, let inverted, let end):
            let value = lookUp(name, in: run.frames)
            if inverted {
                renderInverted(value, pc + 1, end, &run, indentation: indentation, overrides: overrides)
            } else {
                renderSection(value, pc + 1, end, &run, indentation: indentation, overrides: overrides)
            }
            return end

        case .partial(let callIndex):
            // Fields are read in place: copying the PartialCall would cost reference counting.
            if let prerenderer = run.frames.last?.prerenderer,
                let bytes = prerenderer.prerendered(partial: program.calls[callIndex].name)
            {
                run.output.append(contentsOf: bytes)
                return pc + 1
            }
            let template = program.calls[callIndex].template
            let start = program.templates[template].start
            let end = program.templates[template].end
            if program.calls[callIndex].indentation == nil && program.calls[callIndex].overrides == nil {
                renderRange(start, end, &run, indentation: indentation, overrides: overrides)
                return pc + 1
            }
            // swift-mustache's withPartial: indentation adds up; outer overrides win over the tag's.
            let innerIndentation = program.calls[callIndex].indentation.map { indentation + $0 } ?? indentation
            let innerOverrides = program.calls[callIndex].overrides.map { overrides + $0 } ?? overrides
            renderRange(start, end, &run, indentation: innerIndentation, overrides: innerOverrides)
            return pc + 1

        case .block(let blockIndex, let end):
            let block = program.blocks[blockIndex]
            let innerIndentation = indentation + block.indentation
            if let override = overrides.first(where: { $0.name == block.name }) {
                renderRange(override.start, override.end, &run, indentation: innerIndentation, overrides: overrides)
            } else {
                renderRange(pc + 1, end, &run, indentation: innerIndentation, overrides: overrides)
            }
            return end
        }
    }

    /// `{{#name}}`: lists render once per element, false skips, anything else is pushed.
    private func renderSection(_ value: Any?, _ start: Int, _ end: Int, _ run: inout RenderRun, indentation: [UInt8], overrides: [BlockOverride]) {
        guard let value else { return }
        let valueType = type(of: value)
        if valueType == Bool.self, let flag = value as? Bool {
            if flag { renderRange(start, end, &run, indentation: indentation, overrides: overrides) }
            return
        }
        if !isLeafValue(value) {
            if let sequence = value as? any MustacheSequence {
                renderEach(sequence, start, end, &run, indentation: indentation, overrides: overrides)
                return
            }
            if let flag = value as? Bool {
                if flag { renderRange(start, end, &run, indentation: indentation, overrides: overrides) }
                return
            }
            if let renderable = value as? any MustacheCustomRenderable, renderable.isNull {
                return
            }
        }
        run.push(value)
        renderRange(start, end, &run, indentation: indentation, overrides: overrides)
        run.frames.removeLast()
    }

    /// Each element is its own render scope, as in swift-mustache's MustacheSequence.
    private func renderEach<S: Sequence>(
        _ sequence: S,
        _ start: Int,
        _ end: Int,
        _ run: inout RenderRun,
        indentation: [UInt8],
        overrides: [BlockOverride]
    ) {
        for element in sequence {
            run.push(element)
            renderRange(start, end, &run, indentation: indentation, overrides: overrides)
            run.frames.removeLast()
        }
    }

    /// `{{^name}}`: renders for nil, false, an empty list (pushed) or a null custom renderable.
    private func renderInverted(_ value: Any?, _ start: Int, _ end: Int, _ run: inout RenderRun, indentation: [UInt8], overrides: [BlockOverride]) {
        guard let value else {
            renderRange(start, end, &run, indentation: indentation, overrides: overrides)
            return
        }
        let valueType = type(of: value)
        if valueType == Bool.self, let flag = value as? Bool {
            if !flag { renderRange(start, end, &run, indentation: indentation, overrides: overrides) }
            return
        }
        if isLeafValue(value) { return }
        if let sequence = value as? any MustacheSequence {
            if isEmpty(sequence) {
                // swift-mustache pushes the sequence itself (an Optional around it is gone).
                run.push(sequence)
                renderRange(start, end, &run, indentation: indentation, overrides: overrides)
                run.frames.removeLast()
            }
            return
        }
        if let flag = value as? Bool {
            if !flag { renderRange(start, end, &run, indentation: indentation, overrides: overrides) }
            return
        }
        if let renderable = value as? any MustacheCustomRenderable, renderable.isNull {
            renderRange(start, end, &run, indentation: indentation, overrides: overrides)
        }
    }

    private func isEmpty<S: Sequence>(_ sequence: S) -> Bool {
        var iterator = sequence.makeIterator()
        return iterator.next() == nil
    }
}
