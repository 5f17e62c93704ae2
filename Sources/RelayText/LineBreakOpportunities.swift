import CRelayShim

/// Where a line may break in a paragraph, by ICU's line-break iterator (UAX #14 with ICU's
/// tailorings, and dictionaries for Thai, Lao, Khmer and Burmese, which are written without
/// spaces): `allowed[i]` says whether a line may start at character `i`. A boundary inside a
/// grapheme cluster is never taken.
struct LineBreakOpportunities {
    let allowed: [Bool]

    init(_ characters: ArraySlice<Character>) {
        var allowed = [Bool](repeating: false, count: characters.count)
        // ICU counts in UTF-16 units: the unit each character starts at.
        var units: [UInt16] = []
        var characterAt: [Int] = []  // for each unit, the character starting there, or -1
        for (index, character) in characters.enumerated() {
            let utf16 = String(character).utf16
            characterAt.append(index)
            characterAt.append(contentsOf: repeatElement(-1, count: utf16.count - 1))
            units.append(contentsOf: utf16)
        }
        if !units.isEmpty {
            // At most one boundary per unit, and the end.
            var breaks = [Int32](repeating: 0, count: units.count + 1)
            let count = relay_line_breaks(units, Int32(units.count), &breaks, Int32(breaks.count))
            for boundary in breaks.prefix(max(0, min(Int(count), breaks.count))) {
                if Int(boundary) < characterAt.count, characterAt[Int(boundary)] >= 0 { allowed[characterAt[Int(boundary)]] = true }
            }
        }
        self.allowed = allowed
    }
}
